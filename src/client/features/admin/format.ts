import { formatDay } from '../../../shared/time';

/** "Mar 1, 2030" in the browser's time zone. */
export const formatDate = (iso: string | null) => (iso ? formatDay(iso) : '—');

export const STATUS_COLOR: Record<string, string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };
