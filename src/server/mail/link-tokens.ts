// One-time tokens for e-mailed links (provider registration, password reset).
// The token is `<selector>.<verifier>`: the selector finds the row, and only SHA-256 of the
// verifier is stored, so a copy of the database cannot be turned into working links.
import crypto from 'node:crypto';
import { sha256Hex } from '../digest.js';

export interface IssuedToken {
  /** What goes into the link. */
  token: string;
  selector: string;
  /** SHA-256 of the verifier, hex: what is stored. */
  verifierHash: string;
}

const SELECTOR_BYTES = 16;
const VERIFIER_BYTES = 32;
const B64URL = /^[A-Za-z0-9_-]+$/;
/** base64url length of n bytes without padding. */
const b64len = (bytes: number) => Math.ceil((bytes * 4) / 3);

export const hashVerifier = (verifier: string) => sha256Hex(verifier);

export function issueToken(): IssuedToken {
  const selector = crypto.randomBytes(SELECTOR_BYTES).toString('base64url');
  const verifier = crypto.randomBytes(VERIFIER_BYTES).toString('base64url');
  return { token: `${selector}.${verifier}`, selector, verifierHash: hashVerifier(verifier) };
}

/** Splits a token from a link; null when it does not have the shape of one we issued. */
export function parseToken(token: string): { selector: string; verifier: string } | null {
  const parts = token.trim().split('.');
  if (parts.length !== 2) return null;
  const [selector, verifier] = parts;
  if (selector.length !== b64len(SELECTOR_BYTES) || verifier.length !== b64len(VERIFIER_BYTES)) return null;
  if (!B64URL.test(selector) || !B64URL.test(verifier)) return null;
  return { selector, verifier };
}

/** Constant-time comparison of a presented verifier with the stored hash. */
export function verifierMatches(verifier: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const presented = Buffer.from(hashVerifier(verifier), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && crypto.timingSafeEqual(presented, stored);
}
