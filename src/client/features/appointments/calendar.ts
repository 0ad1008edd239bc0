// Pure helpers of the Appointments tab: the month grid (weeks start on Sunday), day keys in local
// time, the schedule's search and status filter, and the Quick Stats.
import type { Appointment } from '../../../shared/appointments';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number) => String(n).padStart(2, '0');
/** "YYYY-MM-DD" of a date in local time. */
export const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** Local midnight of a "YYYY-MM-DD" key. */
export function fromDayKey(key: string): Date {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}
export const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
export const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

/** The weeks (Sunday first) covering the month of `month`, each a list of seven days. */
export function monthGrid(month: Date): Date[][] {
  const first = new Date(month.getFullYear(), month.getMonth(), 1);
  let day = addDays(first, -first.getDay());
  const weeks: Date[][] = [];
  do {
    const week: Date[] = [];
    for (let i = 0; i < 7; i++) {
      week.push(day);
      day = addDays(day, 1);
    }
    weeks.push(week);
  } while (day.getMonth() === month.getMonth());
  return weeks;
}

/** Sunday 00:00 to the next Sunday 00:00 around `day`. */
export function weekRange(day: Date): { start: Date; end: Date } {
  const start = addDays(startOfDay(day), -day.getDay());
  return { start, end: addDays(start, 7) };
}

/**
 * The instants the Appointments tab asks for: every day the month's grid shows, and this week (for
 * the Quick Stats), as ISO strings for `?from=&to=`.
 */
export function calendarRange(month: Date, now: Date): { from: string; to: string } {
  const weeks = monthGrid(month);
  const week = weekRange(now);
  const gridStart = weeks[0][0];
  const gridEnd = addDays(weeks[weeks.length - 1][6], 1);
  const from = gridStart < week.start ? gridStart : week.start;
  const to = gridEnd > week.end ? gridEnd : week.end;
  return { from: from.toISOString(), to: new Date(to.getTime() - 1).toISOString() };
}

export const appointmentDay = (a: Pick<Appointment, 'appointmentDate'>) =>
  dayKey(new Date(a.appointmentDate));

export const timeOf = (a: Pick<Appointment, 'appointmentDate'>) =>
  new Date(a.appointmentDate).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** Non-cancelled appointments by local day, for the calendar's markers. */
export function byDay(list: readonly Appointment[]): Map<string, Appointment[]> {
  const map = new Map<string, Appointment[]>();
  for (const a of list) {
    if (a.status === 'cancelled') continue;
    const key = appointmentDay(a);
    map.set(key, [...(map.get(key) ?? []), a]);
  }
  return map;
}

export type StatusFilter = 'all' | Appointment['status'];

/** The side panel's list: one day, matching the search (doctor, type or department) and status. */
export function scheduleFor(
  list: readonly Appointment[],
  day: string,
  search: string,
  status: StatusFilter,
): Appointment[] {
  const needle = search.trim().toLowerCase();
  return list.filter(
    (a) =>
      appointmentDay(a) === day &&
      (status === 'all' || a.status === status) &&
      (!needle ||
        [a.patientName, a.patientMrn, a.doctorName, a.appointmentType, a.department, a.notes ?? ''].some(
          (v) => v.toLowerCase().includes(needle),
        )),
  );
}

export interface QuickStats {
  today: number;
  thisWeek: number;
  scheduled: number;
  pending: number;
}

export function quickStats(list: readonly Appointment[], now: Date): QuickStats {
  const today = dayKey(now);
  const { start, end } = weekRange(now);
  const active = list.filter((a) => a.status !== 'cancelled');
  return {
    today: active.filter((a) => appointmentDay(a) === today).length,
    thisWeek: active.filter((a) => {
      const t = new Date(a.appointmentDate);
      return t >= start && t < end;
    }).length,
    scheduled: list.filter((a) => a.status === 'scheduled').length,
    pending: list.filter((a) => a.status === 'pending').length,
  };
}
