// Pure helpers of the patient dashboard: the stat cards' counts.
import type { MedicalRecord } from '../../../shared/records';

type RecordForStats = Pick<MedicalRecord, 'createdAt' | 'isBlockchainVerified'>;

/**
 * Records created after the last sign-in; all of them when there was none
 * (docs/spec.md#patient-dashboard).
 */
export function newNotificationCount(records: readonly RecordForStats[], lastLoginAt: string | null): number {
  if (!lastLoginAt) return records.length;
  const since = new Date(lastLoginAt).getTime();
  if (Number.isNaN(since)) return records.length;
  return records.filter((r) => new Date(r.createdAt).getTime() > since).length;
}

export const verifiedCount = (records: readonly RecordForStats[]) =>
  records.filter((r) => r.isBlockchainVerified).length;
