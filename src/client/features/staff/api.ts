// The hospital's staff (docs/decisions.md#staff-accounts): the members and the invitations waiting,
// each paged on the server; invite, resend, cancel, change a role, deactivate and reactivate. Every
// change reads both lists again, whether it worked or not (a 409 may mean the list is out of date).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '../../../shared/paging';
import type {
  Practitioner,
  StaffInvitation,
  StaffInviteInput,
  StaffMember,
  StaffPage,
  StaffRoleChange,
} from '../../../shared/staff';
import { apiJson } from '../../api/request';
import { AUDIT_KEY } from '../audit/api';

export const STAFF_KEY = ['/api/hospital/staff'] as const;
export const STAFF_INVITATIONS_KEY = ['/api/hospital/staff/invitations'] as const;

export type StaffStatusFilter = 'active' | 'deactivated' | 'all';

/** One page of the staff members for the status chosen. */
export function useStaff(query: { page: number; pageSize: number; status: StaffStatusFilter }) {
  return useQuery<StaffPage>({ queryKey: [...STAFF_KEY, query], placeholderData: keepPreviousData });
}

/** One page of the invitations not yet accepted (pending or expired). */
export function useStaffInvitations(query: { page: number; pageSize: number }) {
  return useQuery<Paged<StaffInvitation>>({
    queryKey: [...STAFF_INVITATIONS_KEY, query],
    placeholderData: keepPreviousData,
  });
}

function useStaffMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: STAFF_KEY }),
        client.invalidateQueries({ queryKey: STAFF_INVITATIONS_KEY }),
        client.invalidateQueries({ queryKey: AUDIT_KEY }),
      ]),
  });
}

export function useInviteStaff() {
  return useStaffMutation((input: StaffInviteInput) =>
    apiJson<StaffInvitation>('POST', '/api/hospital/staff', input),
  );
}

export function useResendInvitation() {
  return useStaffMutation((id: string) =>
    apiJson<StaffInvitation>('POST', `/api/hospital/staff/invitations/${encodeURIComponent(id)}/resend`),
  );
}

export function useCancelInvitation() {
  return useStaffMutation((id: string) =>
    apiJson<{ message: string }>('DELETE', `/api/hospital/staff/invitations/${encodeURIComponent(id)}`),
  );
}

export function useChangeStaffRole() {
  return useStaffMutation((vars: { id: string; change: StaffRoleChange }) =>
    apiJson<StaffMember>('PATCH', `/api/hospital/staff/${encodeURIComponent(vars.id)}`, vars.change),
  );
}

export function useStaffStatus() {
  return useStaffMutation((vars: { id: string; action: 'deactivate' | 'reactivate' }) =>
    apiJson<StaffMember>('POST', `/api/hospital/staff/${encodeURIComponent(vars.id)}/${vars.action}`),
  );
}

/** The organization's active practitioners (clinicians and admins), for the forms' select. */
export const usePractitioners = () =>
  useQuery<Practitioner[]>({ queryKey: ['/api/hospital/practitioners'], staleTime: 60_000 });
