// Session state (docs/spec.md#states): the user is read from local storage at start and confirmed
// with GET /api/auth/me; a stale local user ({user: null}) is dropped. Login stores the user; logout
// clears it, tells the server, and reloads at /.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { USER_STORAGE_KEY } from '../../shared/constants';
import type { PublicUser } from '../../shared/users';
import { setUnauthorizedHandler } from '../api/queryClient';
import { meQuery, postLogin, postLogout, postSignInLink, postTwoFactorCode } from './api';
import {
  AuthContext,
  ME_QUERY_KEY,
  type AuthContextValue,
  type LoginInput,
  type LoginOutcome,
} from './context';
import { readStoredUser, writeStoredUser } from './storage';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [storedUser] = useState(readStoredUser);
  const me = useQuery(meQuery);

  // The server's answer wins; if it could not be asked (network error), keep the stored user.
  const user = me.isSuccess ? me.data.user : storedUser;
  const isLoading = me.isPending;

  useEffect(() => {
    if (me.isSuccess) writeStoredUser(me.data.user);
  }, [me.isSuccess, me.data]);

  useEffect(() => {
    // Any query answered 401: the session has ended on the server.
    setUnauthorizedHandler(() => queryClient.setQueryData(meQuery.queryKey, { user: null }));
    // Another tab signed in or out: ask the server again.
    const onStorage = (event: StorageEvent) => {
      if (event.key === USER_STORAGE_KEY) void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    };
    window.addEventListener('storage', onStorage);
    return () => {
      setUnauthorizedHandler(undefined);
      window.removeEventListener('storage', onStorage);
    };
  }, [queryClient]);

  const signedIn = useCallback(
    (user: PublicUser) => {
      writeStoredUser(user);
      queryClient.setQueryData(meQuery.queryKey, { user });
      return user;
    },
    [queryClient],
  );

  const login = useCallback(
    async (input: LoginInput): Promise<LoginOutcome> => {
      const answer = await postLogin(input);
      if ('user' in answer) signedIn(answer.user);
      return answer;
    },
    [signedIn],
  );

  const verifyTwoFactor = useCallback(
    async (code: string) => {
      const answer = await postTwoFactorCode(code);
      return signedIn(answer.user);
    },
    [signedIn],
  );

  const signInWithLink = useCallback(
    async (token: string) => signedIn((await postSignInLink(token)).user),
    [signedIn],
  );

  const logout = useCallback(async () => {
    writeStoredUser(null);
    try {
      await postLogout();
    } catch (error) {
      // Spec: a failing server logout is only logged; logout proceeds.
      console.error('Server logout failed', error);
    }
    window.location.href = '/';
  }, []);

  const setUser = useCallback(
    (next: PublicUser | null) => queryClient.setQueryData(meQuery.queryKey, { user: next }),
    [queryClient],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ user, isLoading, login, verifyTwoFactor, signInWithLink, logout, setUser }),
    [user, isLoading, login, verifyTwoFactor, signInWithLink, logout, setUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
