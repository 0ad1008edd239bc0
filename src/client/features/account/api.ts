// Query hooks of the account's own security calls (issue 9): two-factor, password, sessions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PasswordChangeInput,
  SessionInfo,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../../shared/account';
import { apiJson } from '../../api/request';

const STATUS_KEY = ['/api/auth/2fa'] as const;
const SESSIONS_KEY = ['/api/auth/sessions'] as const;

export const useTwoFactorStatus = () => useQuery<TwoFactorStatus>({ queryKey: STATUS_KEY });

export const useTwoFactorSetup = () =>
  useMutation({ mutationFn: () => apiJson<TwoFactorSetup>('POST', '/api/auth/2fa/setup') });

export function useTwoFactorEnable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiJson<{ recoveryCodes: string[] }>('POST', '/api/auth/2fa/enable', { code }),
    onSuccess: () => client.invalidateQueries({ queryKey: STATUS_KEY }),
  });
}

export function useTwoFactorDisable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      apiJson<{ message: string }>('POST', '/api/auth/2fa/disable', { password }),
    onSuccess: () => client.invalidateQueries({ queryKey: STATUS_KEY }),
  });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      apiJson<{ message: string; endedSessions: number }>('POST', '/api/auth/password', input),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export const useSessions = () => useQuery<SessionInfo[]>({ queryKey: SESSIONS_KEY });

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiJson<{ message: string }>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
