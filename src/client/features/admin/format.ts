import dayjs from 'dayjs';

/** "Mar 1, 2030" in the browser's time zone. */
export const formatDate = (iso: string | null) => (iso ? dayjs(iso).format('MMM D, YYYY') : '—');

export const STATUS_COLOR: Record<string, string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };
