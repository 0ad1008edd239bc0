// A record's own calls (docs/spec.md#calls): the record and its versions, the sharing switches,
// "entered in error", the upload and the drafts. After any change the lists of records, the drafts
// and the audit trail are read again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecordVerification } from '../../../shared/ledger/api';
import type { Paged } from '../../../shared/paging';
import type { MedicalRecord, RecordVersion } from '../../../shared/records';
import { apiJson, uploadWithProgress } from '../../api/request';
import { AUDIT_KEY } from '../audit/api';

/** Record lists: a patient's for a hospital (with its id), the signed-in patient's own (without). */
export const RECORDS_KEY = ['/api/medical-records'] as const;
export const DRAFTS_KEY = ['/api/medical-records/drafts'] as const;
export const RECORD_KEY = ['/api/medical-records/record'] as const;

/** One page of a patient's records: current versions, or with `all` also superseded and retracted ones. */
export const usePatientRecords = (patientRowId: string | null, all = false, page = 1) =>
  useQuery<Paged<MedicalRecord>>({
    queryKey: [...RECORDS_KEY, patientRowId ?? '', { view: all ? 'all' : undefined, page }],
    enabled: !!patientRowId,
  });

/** One page of the signed-in patient's own records, as usePatientRecords. */
export const useOwnRecords = (all = false, page = 1) =>
  useQuery<Paged<MedicalRecord>>({ queryKey: [...RECORDS_KEY, { view: all ? 'all' : undefined, page }] });

export const useDrafts = () => useQuery<MedicalRecord[]>({ queryKey: DRAFTS_KEY });

/** A patient's records are read again (after an upload from the patient's details). */
export function useRefreshPatientRecords(patientRowId: string) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: [...RECORDS_KEY, patientRowId] });
}

/** The patient's own records are read again (closing a record marks it viewed). */
export function useRefreshOwnRecords() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: RECORDS_KEY });
}

/** Every opening reads the record again, so every view is audited. */
export const useRecord = (recordId: string | null) =>
  useQuery<MedicalRecord>({
    queryKey: [...RECORD_KEY, recordId ?? ''],
    enabled: !!recordId,
    staleTime: 0,
    gcTime: 0,
  });

export const useRecordHistory = (recordId: string, enabled: boolean) =>
  useQuery<{ versions: RecordVersion[] }>({
    queryKey: [...RECORDS_KEY, recordId, 'history'],
    enabled,
    staleTime: 0,
  });

/** The server's check of the record against the ledger. */
export const useRecordVerification = (recordId: string) =>
  useQuery<RecordVerification>({ queryKey: [...RECORDS_KEY, recordId, 'verification'] });

/**
 * A mutation after which the record lists, drafts and trail are read again; the open record itself
 * only with `rereadRecord` (every read of it is audited).
 */
function useRecordMutation<V, T = unknown>(call: (vars: V) => Promise<T>, rereadRecord = false) {
  const client = useQueryClient();
  const keys = rereadRecord
    ? [RECORDS_KEY, DRAFTS_KEY, AUDIT_KEY, RECORD_KEY]
    : [RECORDS_KEY, DRAFTS_KEY, AUDIT_KEY];
  return useMutation({
    mutationFn: call,
    // Not awaited: the caller's message comes first, then the lists are read again.
    onSuccess: () => {
      void Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

export const useUpdateSharing = (recordId: string) =>
  useRecordMutation((sharing: { shareWithSpecialists: boolean; shareWithFamily: boolean }) =>
    apiJson('PUT', `/api/medical-records/${recordId}/sharing`, sharing),
  );

export const useMarkEnteredInError = (recordId: string) =>
  useRecordMutation(
    (input: { reason: string }) =>
      apiJson('POST', `/api/medical-records/${recordId}/entered-in-error`, input),
    true,
  );

export const useFinalizeDraft = () =>
  useRecordMutation((draftId: string) => apiJson('POST', `/api/medical-records/${draftId}/finalize`));

export const useDiscardDraft = () =>
  useRecordMutation((draftId: string) => apiJson('DELETE', `/api/medical-records/${draftId}`));

/** A new record, a draft, or an amendment of `amendingId`, with the upload's progress in percent. */
export const useUploadRecord = (amendingId: string | undefined, onProgress: (percent: number) => void) =>
  useRecordMutation((form: FormData) =>
    uploadWithProgress<MedicalRecord>(
      amendingId ? `/api/medical-records/${amendingId}/amend` : '/api/medical-records',
      form,
      (p) => onProgress(p.percent),
    ),
  );
