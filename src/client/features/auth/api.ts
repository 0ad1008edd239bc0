// Account creation (docs/spec.md#screens-and-routes, Signup).
import { useMutation } from '@tanstack/react-query';
import type { RegisterInput } from '../../../shared/auth';
import { apiJson } from '../../api/request';

export const useRegister = () =>
  useMutation({
    mutationFn: (input: RegisterInput) => apiJson<{ message: string }>('POST', '/api/auth/register', input),
  });
