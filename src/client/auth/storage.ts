// The signed-in user kept in the browser (spec section 4) under USER_STORAGE_KEY.
import { publicUserSchema } from '../../shared/auth';
import { USER_STORAGE_KEY } from '../../shared/constants';
import type { PublicUser } from '../../shared/users';

/** The stored user, or null when absent, unreadable or not of the expected shape. */
export function readStoredUser(storage: Pick<Storage, 'getItem'> = window.localStorage): PublicUser | null {
  try {
    const raw = storage.getItem(USER_STORAGE_KEY);
    if (!raw) return null;
    const parsed = publicUserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
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
