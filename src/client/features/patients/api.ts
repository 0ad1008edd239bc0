// Patients' calls (docs/spec.md#calls): the hospital's patient list, adding, editing and removing a
// patient, a new activation code; the patient's own profile. After a hospital's change its lists,
// records, drafts and trail are read again.
import { useMutation, usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssuedActivationCode } from '../../../shared/activation';
import type { ProfileUpdate } from '../../../shared/patient-profile';
import type { Paged, Patient, PatientInput } from '../../../shared/patients';
import { apiJson } from '../../api/request';
import { ACTIVITY_KEY, AUDIT_KEY, AUDIT_USERS_KEY } from '../audit/api';
import { DRAFTS_KEY, RECORDS_KEY } from '../records/api';
import { FIRST_PATIENTS_PAGE_KEY, PATIENTS_KEY } from './keys';

export const PROFILE_KEY = ['/api/patients/profile'] as const;

export interface PatientListParams {
  search?: string;
  department?: string;
  page: number;
  pageSize?: number;
}

export const usePatients = (params: PatientListParams) =>
  useQuery<Paged<Patient>>({ queryKey: [...PATIENTS_KEY, { ...params }] });

/**
 * Starts reading the list the Patients tab opens on before the tab is shown: the dashboard shows
 * it only with the billing status, and reading one after the other cost a round trip.
 */
export const usePrefetchFirstPatientsPage = () => usePrefetchQuery({ queryKey: FIRST_PATIENTS_PAGE_KEY });

/** After a patient changes: lists, records and the trail are read again (data is never stale otherwise). */
function useRefreshHospitalData() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [PATIENTS_KEY, RECORDS_KEY, DRAFTS_KEY, AUDIT_KEY, AUDIT_USERS_KEY].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

/** Add / edit patient: every field optional; empty values are sent as null. */
export type PatientPayload = Partial<Record<keyof PatientInput, string | null>> & {
  confirmDuplicate?: boolean;
};

export function useSavePatient() {
  const refresh = useRefreshHospitalData();
  return useMutation({
    mutationFn: ({ id, payload }: { id?: string; payload: PatientPayload }) =>
      id
        ? apiJson<Patient>('PUT', `/api/patients/${id}`, payload)
        : apiJson<Patient>('POST', '/api/patients', payload),
    onSuccess: () => refresh(),
  });
}

export function useDeletePatient() {
  const refresh = useRefreshHospitalData();
  return useMutation({
    mutationFn: (id: string) => apiJson<{ message: string }>('DELETE', `/api/patients/${id}`),
    onSuccess: () => refresh(),
  });
}

/** POST /api/patients/{id}/activation-code: a new code (the old one stops working). */
export const useIssueActivationCode = () =>
  useMutation({
    mutationFn: (patientRowId: string) =>
      apiJson<IssuedActivationCode>('POST', `/api/patients/${patientRowId}/activation-code`),
  });

/** The signed-in patient's own patient row (their profile). */
export const useProfile = (userId: string | undefined) =>
  useQuery<Patient>({ queryKey: [...PROFILE_KEY, userId ?? ''], enabled: !!userId });

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
