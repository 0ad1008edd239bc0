// The administrator's calls: the applications list, review, a new link, "mark active", and the
// Users table with suspend / reactivate / verify.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminReactivateInput, AdminUser, AdminUserPage } from '../../../shared/admin-users';
import type { Application, HospitalSubscriptionList } from '../../../shared/providers';
import type { Paged } from '../../../shared/paging';
import { apiJson } from '../../api/request';

export const APPLICATIONS_KEY = ['/api/provider-applications'] as const;
export const HOSPITAL_ACCOUNTS_KEY = ['/api/billing/subscriptions'] as const;

export function useHospitalAccounts() {
  return useQuery<HospitalSubscriptionList>({ queryKey: HOSPITAL_ACCOUNTS_KEY });
}

/** One page of the applications, newest first. */
export function useApplications(page = 1) {
  return useQuery<Paged<Application>>({ queryKey: [...APPLICATIONS_KEY, { page }] });
}

function useRefreshingMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    // The list refreshes after every change (docs/spec.md#messages), whether it worked or not.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: APPLICATIONS_KEY }),
        client.invalidateQueries({ queryKey: HOSPITAL_ACCOUNTS_KEY }),
      ]),
  });
}

export function useReview() {
  return useRefreshingMutation((vars: { id: string; status: 'approved' | 'rejected' }) =>
    apiJson('PATCH', `/api/provider-applications/${vars.id}/review`, { status: vars.status }),
  );
}

export function useResendLink() {
  return useRefreshingMutation((id: string) =>
    apiJson('POST', `/api/provider-applications/${id}/resend-link`),
  );
}

export function useMarkActive() {
  return useRefreshingMutation((hospitalUserId: string) =>
    apiJson<{ message: string }>('POST', `/api/billing/subscriptions/${hospitalUserId}/activate`),
  );
}

export const USERS_KEY = ['/api/admin/users'] as const;

/** The Users table: one page of accounts for the search, role and status chosen. */
export function useAdminUsers(query: {
  search: string;
  role: string;
  status: string;
  page: number;
  pageSize: number;
}) {
  return useQuery<AdminUserPage>({ queryKey: [...USERS_KEY, query], placeholderData: keepPreviousData });
}

/** Suspend, reactivate or verify an account; the Users table and hospital accounts refresh. */
export function useAccountAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (vars: {
      id: string;
      action: 'suspend' | 'reactivate' | 'verify';
      /** Reactivation: whether the account's share links and family grants come back. */
      body?: AdminReactivateInput;
    }) =>
      apiJson<{ user: AdminUser; message: string }>(
        'POST',
        `/api/admin/users/${vars.id}/${vars.action}`,
        vars.body,
      ),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: USERS_KEY }),
        client.invalidateQueries({ queryKey: HOSPITAL_ACCOUNTS_KEY }),
      ]),
  });
}
