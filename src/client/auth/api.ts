// The session's calls (docs/spec.md#states): who is signed in, sign in (with a second factor when
// the account has one) and sign out. The auth provider is their only user.
import { queryOptions } from '@tanstack/react-query';
import type { PublicUser } from '../../shared/users';
import { getQueryFn } from '../api/queryClient';
import { apiJson, apiRequest } from '../api/request';
import { ME_QUERY_KEY, type LoginInput, type LoginOutcome } from './context';

/** GET /api/auth/me: {user: null} for a visitor (a 401 from an older server reads the same). */
export type MeAnswer = { user: PublicUser | null };
const fetchMe = getQueryFn<{ user: PublicUser }>({ on401: 'returnNull' });

export const meQuery = queryOptions<MeAnswer>({
  queryKey: ME_QUERY_KEY,
  queryFn: async (context) => ({ user: (await fetchMe(context))?.user ?? null }),
});

export const postLogin = (input: LoginInput) => apiJson<LoginOutcome>('POST', '/api/auth/login', input);

export const postTwoFactorCode = (code: string) =>
  apiJson<{ user: PublicUser }>('POST', '/api/auth/2fa/verify', { code });

/** POST /api/auth/sign-in-link: finishes a sign-in with the link mailed to an account under attack. */
export const postSignInLink = (token: string) =>
  apiJson<{ user: PublicUser }>('POST', '/api/auth/sign-in-link', { token });

export const postLogout = () => apiRequest('POST', '/api/auth/logout');
