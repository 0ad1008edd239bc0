// Queries and mutations of the patient dashboard (docs/spec.md#calls). Keys follow the default query
// loader: segments joined with '/', an object segment as the query string.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Consent, ConsentInput } from '../../../shared/consent';
import type { FamilyContact, FamilyContactInput } from '../../../shared/family-contacts';
import type { AuditPage } from '../../../shared/hospital';
import type { ProfileUpdate } from '../../../shared/patient-profile';
import type { Paged, Patient } from '../../../shared/patients';
import type { MedicalRecord } from '../../../shared/records';
import { apiJson } from '../../api/request';

export const OWN_RECORDS_KEY = ['/api/medical-records'] as const;
export const PROFILE_KEY = ['/api/patients/profile'] as const;
export const CONSENT_KEY = ['/api/consent'] as const;
export const FAMILY_KEY = ['/api/family-contacts/patient'] as const;
export const ACTIVITY_KEY = ['/api/audit-logs/patient'] as const;

/** One page of the patient's records: current versions, or with `all` also superseded and retracted ones. */
export const useOwnRecords = (all = false, page = 1) =>
  useQuery<Paged<MedicalRecord>>({ queryKey: [...OWN_RECORDS_KEY, { view: all ? 'all' : undefined, page }] });

export const useProfile = (userId: string | undefined) =>
  useQuery<Patient>({ queryKey: [...PROFILE_KEY, userId ?? ''], enabled: !!userId });

export const useConsent = (userId: string | undefined) =>
  useQuery<Consent>({ queryKey: [...CONSENT_KEY, userId ?? ''], enabled: !!userId });

/** One page of a patient's family contacts. */
export const useFamilyContacts = (patientRowId: string | undefined, page = 1) =>
  useQuery<Paged<FamilyContact>>({
    queryKey: [...FAMILY_KEY, patientRowId ?? '', { page }],
    enabled: !!patientRowId,
  });

export interface ActivityParams {
  action: string;
  from?: string;
  to?: string;
  page: number;
  routine: 'show' | 'hide';
}

/** Read again whenever the dashboard opens: every read of a record adds entries. */
export const useActivity = (params: ActivityParams) =>
  useQuery<AuditPage>({ queryKey: [...ACTIVITY_KEY, { ...params }], refetchOnMount: 'always' });

/** The patient's own records are read again (closing a record marks it viewed). */
export function useRefreshOwnRecords() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: OWN_RECORDS_KEY });
}

/** The activity trail after any change or read (data is never stale otherwise). */
export function useRefreshActivity() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ACTIVITY_KEY });
}

export function useSaveProfile(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ patientRowId, update }: { patientRowId: string; update: ProfileUpdate }) =>
      apiJson<Patient>('PUT', `/api/patients/${patientRowId}`, update),
    onSuccess: (patient) => {
      client.setQueryData([...PROFILE_KEY, userId], patient);
      return client.invalidateQueries({ queryKey: ACTIVITY_KEY });
    },
  });
}

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

export type ContactChange =
  | { kind: 'add'; input: FamilyContactInput }
  | { kind: 'update'; id: string; input: FamilyContactInput }
  | { kind: 'delete'; id: string };

export function useChangeContact(patientRowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: ContactChange): Promise<unknown> => {
      if (change.kind === 'add') return apiJson<FamilyContact>('POST', '/api/family-contacts', change.input);
      if (change.kind === 'update')
        return apiJson<FamilyContact>('PUT', `/api/family-contacts/${change.id}`, change.input);
      return apiJson<{ message: string }>('DELETE', `/api/family-contacts/${change.id}`);
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: [...FAMILY_KEY, patientRowId] }),
        client.invalidateQueries({ queryKey: ACTIVITY_KEY }),
      ]),
  });
}
