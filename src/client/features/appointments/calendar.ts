// Pure helpers of the Appointments tab: the month grid (weeks start on Sunday), the schedule's
// search and status filter, and the Quick Stats. The grid is plain calendar days; an appointment
// falls on the day and at the time it has in the hospital's time zone (`zone`), wherever the
// browser is (docs/decisions.md#time).
import type { Appointment } from '../../../shared/appointments';
import { clockIn, dayKeyIn, formatClock, formatDay, formatInstant, instantIn } from '../../../shared/time';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number) => String(n).padStart(2, '0');
/** "YYYY-MM-DD" of a calendar day of the grid (a local Date used as a plain day). */
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

/** The Sunday-to-Saturday week around `day` as [first, after-last) day keys. */
export function weekRange(day: Date): { start: string; end: string } {
  const start = addDays(startOfDay(day), -day.getDay());
  return { start: dayKey(start), end: dayKey(addDays(start, 7)) };
}

/**
 * The instants the Appointments tab asks for: every day the month's grid shows, and this week (for
 * the Quick Stats), from midnight to midnight in the hospital's zone, as ISO strings for
 * `?from=&to=`. `today` is the hospital's day key.
 */
export function calendarRange(month: Date, today: string, zone: string): { from: string; to: string } {
  const weeks = monthGrid(month);
  const week = weekRange(fromDayKey(today));
  const gridStart = dayKey(weeks[0][0]);
  const gridEnd = dayKey(addDays(weeks[weeks.length - 1][6], 1));
  const from = gridStart < week.start ? gridStart : week.start;
  const to = gridEnd > week.end ? gridEnd : week.end;
  return {
    from: instantIn(from, '00:00', zone).toISOString(),
    to: new Date(instantIn(to, '00:00', zone).getTime() - 1).toISOString(),
  };
}

/** The day an appointment falls on in `zone`. */
export const appointmentDay = (a: Pick<Appointment, 'appointmentDate'>, zone: string) =>
  dayKeyIn(a.appointmentDate, zone);

/** "10:00 AM": the appointment's time in `zone`. */
export const timeOf = (a: Pick<Appointment, 'appointmentDate'>, zone: string) =>
  formatClock(a.appointmentDate, zone);

/** The slot ("10:00") an appointment starts in, in `zone`. */
export const slotOf = (a: Pick<Appointment, 'appointmentDate'>, zone: string) =>
  clockIn(a.appointmentDate, zone);

/** Non-cancelled appointments by their day in `zone`, each day's in time order, for the calendar. */
export function byDay(list: readonly Appointment[], zone: string): Map<string, Appointment[]> {
  const map = new Map<string, Appointment[]>();
  for (const a of list) {
    if (a.status === 'cancelled') continue;
    const key = appointmentDay(a, zone);
    map.set(key, [...(map.get(key) ?? []), a]);
  }
  for (const day of map.values()) day.sort(byTime);
  return map;
}

/** Earlier first (ISO instants of one format compare as their times). */
export const byTime = (a: Pick<Appointment, 'appointmentDate'>, b: Pick<Appointment, 'appointmentDate'>) =>
  new Date(a.appointmentDate).getTime() - new Date(b.appointmentDate).getTime();

/** The calendar's three views; the week and the day are those of the selected day. */
export type CalendarView = 'month' | 'week' | 'day';

/** The seven days, Sunday first, of the week around `day`. */
export function weekDays(day: Date): Date[] {
  const start = addDays(startOfDay(day), -day.getDay());
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** The day key `n` days after `key` (before it when negative). */
export const shiftDayKey = (key: string, n: number) => dayKey(addDays(fromDayKey(key), n));

/**
 * The month whose grid the tab loads (calendarRange) for a view: the month shown, or the selected
 * day's month in the week and day views. A month's grid holds whole weeks, so the selected day's
 * week is loaded with it even when it runs into the month before or after.
 */
export const loadedMonth = (view: CalendarView, month: Date, selected: string) =>
  view === 'month' ? month : fromDayKey(selected);

export type StatusFilter = 'all' | Appointment['status'];

/** The side panel's list: one day, matching the search (doctor, type or department) and status. */
export function scheduleFor(
  list: readonly Appointment[],
  day: string,
  search: string,
  status: StatusFilter,
  zone: string,
): Appointment[] {
  const needle = search.trim().toLowerCase();
  return list.filter(
    (a) =>
      appointmentDay(a, zone) === day &&
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

/** Today and this week are the hospital's (in `zone`), not the browser's. */
export function quickStats(list: readonly Appointment[], now: Date, zone: string): QuickStats {
  const today = dayKeyIn(now, zone);
  const { start, end } = weekRange(fromDayKey(today));
  const active = list.filter((a) => a.status !== 'cancelled');
  return {
    today: active.filter((a) => appointmentDay(a, zone) === today).length,
    thisWeek: active.filter((a) => {
      const day = appointmentDay(a, zone);
      return day >= start && day < end;
    }).length,
    scheduled: list.filter((a) => a.status === 'scheduled').length,
    pending: list.filter((a) => a.status === 'pending').length,
  };
}

/**
 * An appointment's date and time for someone whose zone is `viewerZone` (a patient): in their
 * own zone, and, when the hospital's clock reads differently, also as the hospital has it, both
 * zones named.
 */
export function whenForViewer(
  a: Pick<Appointment, 'appointmentDate' | 'timeZone'>,
  viewerZone: string,
): { local: string; hospital: string | null } {
  const local = `${formatDay(a.appointmentDate, viewerZone)} at ${formatClock(a.appointmentDate, viewerZone)}`;
  if (formatInstant(a.appointmentDate, viewerZone) === formatInstant(a.appointmentDate, a.timeZone)) {
    return { local, hospital: null };
  }
  return {
    local: `${local} (${viewerZone})`,
    hospital: `${formatInstant(a.appointmentDate, a.timeZone)} at the hospital (${a.timeZone})`,
  };
}
