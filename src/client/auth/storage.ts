// The signed-in user kept in the browser (docs/spec.md#states) under USER_STORAGE_KEY.
import { ROLES, USER_STORAGE_KEY } from '../../shared/constants';
import type { PublicUser } from '../../shared/users';

/** The stored user, or null when absent, unreadable or not of the expected shape. */
export function readStoredUser(storage: Pick<Storage, 'getItem'> = window.localStorage): PublicUser | null {
  try {
    const raw = storage.getItem(USER_STORAGE_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return looksLikeUser(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeStoredUser(
  user: PublicUser | null,
  storage: Pick<Storage, 'setItem' | 'removeItem'> = window.localStorage,
) {
  try {
    if (user) storage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    else storage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Storage full or disabled (private mode): the server session still works.
  }
}

/**
 * Enough of a check for a cached copy: the server's GET /api/auth/me answer replaces it at once.
 * (Kept free of Zod so that the first page a visitor loads stays small.)
 */
function looksLikeUser(value: unknown): value is PublicUser {
  if (!value || typeof value !== 'object') return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user.id === 'string' &&
    typeof user.email === 'string' &&
    (ROLES as readonly unknown[]).includes(user.role)
  );
}
