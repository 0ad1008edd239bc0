// A provider's way in (docs/spec.md#other-pages): the public application, then the account made from
// the e-mailed one-time link.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ProviderRegisterInput,
  VerificationRequest,
  VerificationStatus,
} from '../../../shared/providers';
import { apiJson } from '../../api/request';
import type { ApplicationValues } from './applicationForm';

export const useApply = () =>
  useMutation({
    mutationFn: (values: ApplicationValues) => apiJson('POST', '/api/provider-applications', values),
  });

export const useProviderRegister = () =>
  useMutation({
    mutationFn: (input: ProviderRegisterInput) => apiJson('POST', '/api/provider-register', input),
  });

export const VERIFICATION_KEY = ['/api/hospital/verification'] as const;

/** Whether the signed-in hospital is verified, and its latest request (hospital admins). */
export const useVerificationStatus = (enabled: boolean) =>
  useQuery<VerificationStatus>({ queryKey: VERIFICATION_KEY, enabled });

export function useRequestVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: VerificationRequest) =>
      apiJson<VerificationStatus & { message: string }>('POST', '/api/hospital/verification', input),
    onSettled: () => client.invalidateQueries({ queryKey: VERIFICATION_KEY }),
  });
}
