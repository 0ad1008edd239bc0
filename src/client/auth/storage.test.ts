import { describe, expect, it } from 'vitest';
import { USER_STORAGE_KEY } from '../../shared/constants';
import { readStoredUser, writeStoredUser } from './storage';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const user = {
  id: '0d6f1f7e-1111-4c1a-9c57-3b1d2f0a0001',
  email: 'ada@example.com',
  role: 'patient' as const,
  firstName: 'Ada',
  lastName: 'Lovelace',
  hospitalName: null,
  lastLoginAt: null,
};

describe('stored user', () => {
  it(`is kept under ${USER_STORAGE_KEY} and read back`, () => {
    const storage = memoryStorage();
    writeStoredUser(user, storage);
    expect(storage.map.has('medledger.user')).toBe(true);
    expect(readStoredUser(storage)).toEqual(user);
  });

  it('is removed on logout', () => {
    const storage = memoryStorage();
    writeStoredUser(user, storage);
    writeStoredUser(null, storage);
    expect(readStoredUser(storage)).toBeNull();
  });

  it('is ignored when it is not JSON or not a user', () => {
    const storage = memoryStorage();
    storage.setItem(USER_STORAGE_KEY, '{not json');
    expect(readStoredUser(storage)).toBeNull();
    storage.setItem(USER_STORAGE_KEY, JSON.stringify({ ...user, role: 'superuser' }));
    expect(readStoredUser(storage)).toBeNull();
  });
});
