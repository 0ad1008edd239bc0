import type { QueryKey } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { PublicUser } from '../../shared/users';

export const ME_QUERY_KEY: QueryKey = ['/api/auth/me'];

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
}

export interface AuthContextValue {
  /** The signed-in user, or null. */
  user: PublicUser | null;
  /** True until the server has confirmed (or dropped) the stored session. */
  isLoading: boolean;
  /** Signs in and stores the user; raises the request helper's error on failure. */
  login: (input: LoginInput) => Promise<PublicUser>;
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
