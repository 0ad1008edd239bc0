// Queries and mutations of the hospital dashboard (docs/spec.md#calls). Keys follow the default query
// loader: segments joined with '/', an object segment as the query string.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssuedActivationCode } from '../../../shared/activation';
import type {
  AuditEntry,
  AuditUser,
  HospitalSettings,
  HospitalSettingsInput,
} from '../../../shared/hospital';
import type { Paged, Patient, PatientInput } from '../../../shared/patients';
import type { MedicalRecord } from '../../../shared/records';
import { apiJson } from '../../api/request';

export const PATIENTS_KEY = ['/api/patients'] as const;
export const RECORDS_KEY = ['/api/medical-records'] as const;
export const DRAFTS_KEY = ['/api/medical-records/drafts'] as const;
export const AUDIT_KEY = ['/api/audit-logs'] as const;
export const AUDIT_USERS_KEY = ['/api/audit-logs/users'] as const;
export const SETTINGS_KEY = ['/api/hospital/settings'] as const;

export interface PatientListParams {
  search?: string;
  department?: string;
  page: number;
  pageSize?: number;
}

export const usePatients = (params: PatientListParams) =>
  useQuery<Paged<Patient>>({ queryKey: [...PATIENTS_KEY, { ...params }] });

/** One page of a patient's records: current versions, or with `all` also superseded and retracted ones. */
export const usePatientRecords = (patientRowId: string | null, all = false, page = 1) =>
  useQuery<Paged<MedicalRecord>>({
    queryKey: [...RECORDS_KEY, patientRowId ?? '', { view: all ? 'all' : undefined, page }],
    enabled: !!patientRowId,
  });

export const useDrafts = () => useQuery<MedicalRecord[]>({ queryKey: DRAFTS_KEY });

export interface AuditParams {
  action?: string;
  userId?: string;
  from?: string;
  to?: string;
  page: number;
}

/** Read again whenever the tab opens: every read elsewhere adds entries. */
export const useAuditLogs = (params: AuditParams) =>
  useQuery<Paged<AuditEntry>>({ queryKey: [...AUDIT_KEY, { ...params }], refetchOnMount: 'always' });

export const useAuditUsers = () =>
  useQuery<AuditUser[]>({ queryKey: AUDIT_USERS_KEY, refetchOnMount: 'always' });

export const useSettings = () => useQuery<HospitalSettings>({ queryKey: SETTINGS_KEY });

/** A patient's records are read again (after an upload from the patient's details). */
export function useRefreshPatientRecords(patientRowId: string) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: [...RECORDS_KEY, patientRowId] });
}

/** After any change: lists, records and the trail are read again (data is never stale otherwise). */
export function useRefreshHospitalData() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: PATIENTS_KEY }),
      client.invalidateQueries({ queryKey: RECORDS_KEY }),
      client.invalidateQueries({ queryKey: DRAFTS_KEY }),
      client.invalidateQueries({ queryKey: AUDIT_KEY }),
      client.invalidateQueries({ queryKey: AUDIT_USERS_KEY }),
    ]);
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

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: HospitalSettingsInput) =>
      apiJson<HospitalSettings>('PUT', '/api/hospital/settings', input),
    onSuccess: (data) => {
      client.setQueryData(SETTINGS_KEY, data);
      return client.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}
