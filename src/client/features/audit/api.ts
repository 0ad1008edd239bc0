// The trails' calls (docs/spec.md#calls): the hospital's audit trail with its user filter, and the
// patient's activity trail. Both are read again on every opening: every read elsewhere adds entries.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuditEntry, AuditPage, AuditUser } from '../../../shared/hospital';
import type { Paged } from '../../../shared/paging';

export const AUDIT_KEY = ['/api/audit-logs'] as const;
export const AUDIT_USERS_KEY = ['/api/audit-logs/users'] as const;
export const ACTIVITY_KEY = ['/api/audit-logs/patient'] as const;

export interface AuditParams {
  action?: string;
  userId?: string;
  from?: string;
  to?: string;
  page: number;
}

export const useAuditLogs = (params: AuditParams) =>
  useQuery<Paged<AuditEntry>>({ queryKey: [...AUDIT_KEY, { ...params }], refetchOnMount: 'always' });

export const useAuditUsers = () =>
  useQuery<AuditUser[]>({ queryKey: AUDIT_USERS_KEY, refetchOnMount: 'always' });

export interface ActivityParams {
  action: string;
  from?: string;
  to?: string;
  page: number;
  routine: 'show' | 'hide';
}

export const useActivity = (params: ActivityParams) =>
  useQuery<AuditPage>({ queryKey: [...ACTIVITY_KEY, { ...params }], refetchOnMount: 'always' });

/** The activity trail after any change or read (data is never stale otherwise). */
export function useRefreshActivity() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ACTIVITY_KEY });
}
