import type { QueryKey } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { LoginPortal } from '../../shared/auth';
import type { PublicUser } from '../../shared/users';

export const ME_QUERY_KEY: QueryKey = ['/api/auth/me'];

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
  /** The sign-in page: the server refuses another role's account there (403) without signing in. */
  portal?: LoginPortal;
}

/** The password step's outcome: signed in, or a second step (two-factor code) is needed. */
export type LoginOutcome = { user: PublicUser } | { twoFactorRequired: true; message: string };

export interface AuthContextValue {
  /** The signed-in user, or null. */
  user: PublicUser | null;
  /** True until the server has confirmed (or dropped) the stored session. */
  isLoading: boolean;
  /**
   * The password step: signs in and stores the user, or answers that a two-factor code is needed
   * (then `verifyTwoFactor` finishes). Raises the request helper's error on failure.
   */
  login: (input: LoginInput) => Promise<LoginOutcome>;
  /** The second step: a code from the authenticator app or a recovery code; stores the user. */
  verifyTwoFactor: (code: string) => Promise<PublicUser>;
  /** Finishes a sign-in with the e-mailed link of an account under attack; stores the user. */
  signInWithLink: (token: string) => Promise<PublicUser>;
  /** Clears the local user, ends the server session, reloads at /. */
  logout: () => Promise<void>;
  /** Replaces the signed-in user (e.g. after a profile change). */
  setUser: (user: PublicUser | null) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
