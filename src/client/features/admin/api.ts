// The administrator's calls: the applications list, review, a new link, and "mark active".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
