// SHA-256 as lowercase hex, the one helper for it: what the database keeps instead of a secret
// token (session ids, link verifiers, pending sign-ins, device, share-link and calendar-feed
// tokens), and the hash of ledger texts (ledger/hashing.ts).
import crypto from 'node:crypto';

export const sha256Hex = (data: string | Uint8Array): string => crypto.hash('sha256', data, 'hex');
