// Password reset (docs/spec.md#other-pages): ask for a link by e-mail, then set a new password with it.
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../api/request';

export const useRequestReset = () =>
  useMutation({
    mutationFn: (input: { email: string }) =>
      apiJson<{ message: string }>('POST', '/api/password-reset', input),
  });

export const useConfirmReset = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      apiJson<{ message: string }>('POST', '/api/password-reset/confirm', input),
  });
