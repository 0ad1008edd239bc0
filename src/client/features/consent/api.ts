// The patient's consent (docs/spec.md#calls): read, and saved (a ledgered change, so the activity
// trail is read again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Consent, ConsentInput } from '../../../shared/consent';
import { apiJson } from '../../api/request';
import { ACTIVITY_KEY } from '../audit/api';

export const CONSENT_KEY = ['/api/consent'] as const;

export const useConsent = (userId: string | undefined) =>
  useQuery<Consent>({ queryKey: [...CONSENT_KEY, userId ?? ''], enabled: !!userId });

export function useSaveConsent(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (consent: ConsentInput) => apiJson<Consent>('PUT', `/api/consent/${userId}`, consent),
    onSuccess: (consent) => {
      client.setQueryData([...CONSENT_KEY, userId], consent);
      return client.invalidateQueries({ queryKey: ACTIVITY_KEY });
    },
  });
}
