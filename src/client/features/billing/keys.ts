// The billing status's query key, apart from the hooks so that main.tsx can start the read (pages/
// firstReads.ts) without bringing the billing calls into the entry.
export const BILLING_STATUS_KEY = ['/api/billing/status'] as const;
