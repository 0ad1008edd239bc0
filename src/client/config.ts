// Footer contact address and social links. Defaults are placeholders (docs/decisions.md#names);
// a deployment sets VITE_SUPPORT_EMAIL / VITE_SOCIAL_PROFILE_URL / VITE_SOCIAL_PAGE_URL at build time.
const env = import.meta.env;

export const SUPPORT_EMAIL = env.VITE_SUPPORT_EMAIL || 'support@medledger.example';

export const SOCIAL_LINKS = [
  {
    label: 'MedLedger on social media',
    href: env.VITE_SOCIAL_PROFILE_URL || 'https://example.com/medledger/profile',
  },
  {
    label: 'MedLedger community page',
    href: env.VITE_SOCIAL_PAGE_URL || 'https://example.com/medledger/page',
  },
] as const;
