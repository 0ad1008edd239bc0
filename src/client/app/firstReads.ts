// The reads a signed-in page opens with, started by main.tsx as soon as the session check says
// who is signed in. index.html starts that check with the page, so these reads travel while the
// page's code is still loading, instead of after it has loaded and rendered once (a round trip
// later). The page's own queries then find the answers in the query cache.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Role } from '../../shared/constants';
import { meQuery } from '../auth/api';
import { BILLING_STATUS_KEY } from '../features/billing/keys';
import { FIRST_PATIENTS_PAGE_KEY } from '../features/patients/keys';
import { tabFromParam } from '../pages/hospital-dashboard/tabs';

interface FirstReads {
  /** Whose page it is: anyone else gets no reads (the page's guard sends them elsewhere). */
  role: Role;
  reads: (params: URLSearchParams) => QueryKey[];
}

/** By path. */
const FIRST_READS: Readonly<Record<string, FirstReads>> = {
  // The trial banner's status, and the patient list when the dashboard opens on its Patients tab.
  '/hospital-dashboard': {
    role: 'hospital',
    reads: (params) => [
      BILLING_STATUS_KEY,
      ...(tabFromParam(params.get('tab'), 'hospital_admin') === 'patients' ? [FIRST_PATIENTS_PAGE_KEY] : []),
    ],
  },
};

/** Starts the first reads of the page at `location`, if it has any and its user is signed in. */
export function startFirstReads(queryClient: QueryClient, location: Pick<Location, 'pathname' | 'search'>) {
  const page = FIRST_READS[location.pathname];
  if (!page) return;
  // A failed session check is the auth provider's to show; a failed read, its page's.
  queryClient
    .fetchQuery(meQuery)
    .then(({ user }) => {
      if (user?.role !== page.role) return;
      for (const queryKey of page.reads(new URLSearchParams(location.search))) {
        void queryClient.prefetchQuery({ queryKey });
      }
    })
    .catch(() => undefined);
}
