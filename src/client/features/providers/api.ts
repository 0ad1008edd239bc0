// A provider's way in (docs/spec.md#other-pages): the public application, then the account made from
// the e-mailed one-time link.
import { useMutation } from '@tanstack/react-query';
import type { ProviderRegisterInput } from '../../../shared/providers';
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
