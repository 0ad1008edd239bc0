// Family proxy access (docs/decisions.md#family-proxy-access): the family member's queries and the
// patient's list of who holds access, with Revoke and Send invitation. Keys follow the default
// query loader (segments joined with '/', an object segment as the query string).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '../../../shared/appointments';
import type { Paged } from '../../../shared/paging';
import type { AccessHolder, ProxyPatient } from '../../../shared/proxy';
import type { MedicalRecord } from '../../../shared/records';
import { apiJson } from '../../api/request';
import { ACTIVITY_KEY } from '../audit/api';
import { FAMILY_KEY } from '../family-contacts/api';

export const PROXY_PATIENTS_KEY = ['/api/proxy/patients'] as const;
export const HOLDERS_KEY = ['/api/proxy/holders'] as const;

/** Read again on every visit: a patient may have ended the access meanwhile. */
export const useProxyPatients = () =>
  useQuery<{ patients: ProxyPatient[] }>({ queryKey: PROXY_PATIENTS_KEY, refetchOnMount: 'always' });

export const useProxyRecords = (patientId: string, page: number) =>
  useQuery<Paged<MedicalRecord>>({
    queryKey: [...PROXY_PATIENTS_KEY, patientId, 'records', { page }],
    refetchOnMount: 'always',
  });

export const useProxyAppointments = (patientId: string) =>
  useQuery<Paged<Appointment>>({
    queryKey: [...PROXY_PATIENTS_KEY, patientId, 'appointments'],
    refetchOnMount: 'always',
  });

export const useAccessHolders = () =>
  useQuery<{ holders: AccessHolder[] }>({ queryKey: HOLDERS_KEY, refetchOnMount: 'always' });

/** Revoke: clears the contact's "Can Access Medical Records" flag on the server. */
export function useRevokeHolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) =>
      apiJson<{ message: string }>('DELETE', `/api/proxy/holders/${encodeURIComponent(contactId)}`),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: HOLDERS_KEY }),
        client.invalidateQueries({ queryKey: FAMILY_KEY }),
        client.invalidateQueries({ queryKey: ACTIVITY_KEY }),
      ]),
  });
}

export function useSendInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) =>
      apiJson<{ message: string }>('POST', `/api/family-contacts/${encodeURIComponent(contactId)}/invite`),
    onSuccess: () => client.invalidateQueries({ queryKey: ACTIVITY_KEY }),
  });
}

export const acceptInvitation = (inviteToken: string) =>
  apiJson<{ message: string }>('POST', '/api/proxy/accept', { inviteToken });
