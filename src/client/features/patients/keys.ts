// The patient list's query keys, apart from the hooks so that main.tsx can start the first read
// (pages/firstReads.ts) without bringing the patients' calls into the entry.
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants';

export const PATIENTS_KEY = ['/api/patients'] as const;

/** What the Patients tab lists when it opens: no search, every department, the first page. */
export const FIRST_PATIENTS_PAGE = { search: '', department: 'all', page: 1, pageSize: DEFAULT_PAGE_SIZE };

export const FIRST_PATIENTS_PAGE_KEY = [...PATIENTS_KEY, { ...FIRST_PATIENTS_PAGE }] as const;
