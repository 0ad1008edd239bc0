// Print day schedule: the day's appointments (time, patient and MRN, type, practitioner, status)
// under the hospital's name, the date and the time zone the times are in, printed the way a
// record is (printPage, src/client/print.ts).
import type { Appointment } from '../../../shared/appointments';
import { formatLongDay } from '../../../shared/time';
import { escapeHtml as escape, printPage } from '../../print';
import { byTime, fromDayKey, timeOf } from './calendar';
import { typeLabel } from './confirmCancelAppointment';

export interface DaySchedule {
  hospitalName: string | null;
  /** "YYYY-MM-DD", the hospital's day. */
  day: string;
  /** The hospital's zone: the times are read in it. */
  zone: string;
  list: readonly Appointment[];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const cell = 'padding:4px 12px 4px 0;border-bottom:1px solid #ccc;text-align:left;vertical-align:top';

/** The printed page's title and body. */
export function dayScheduleHtml({ hospitalName, day, zone, list }: DaySchedule): {
  title: string;
  body: string;
} {
  const date = formatLongDay(fromDayKey(day));
  const hospital = hospitalName || 'Hospital';
  const header = ['Time', 'Patient', 'MRN', 'Type', 'Practitioner', 'Status'];
  const rows = [...list]
    .sort(byTime)
    .map((a) => [
      timeOf(a, zone),
      a.patientName,
      a.patientMrn || '—',
      typeLabel(a.appointmentType),
      a.doctorName,
      capitalise(a.status),
    ]);
  const table =
    rows.length === 0
      ? `<p>No appointments on this day.</p>`
      : `<table style="border-collapse:collapse;width:100%">` +
        `<thead><tr>${header.map((h) => `<th style="${cell}">${escape(h)}</th>`).join('')}</tr></thead>` +
        `<tbody>` +
        rows
          .map((r) => `<tr>${r.map((v) => `<td style="${cell}">${escape(v)}</td>`).join('')}</tr>`)
          .join('') +
        `</tbody></table>`;
  return {
    title: `${hospital}: schedule for ${date}`,
    body:
      `<div style="font-family:sans-serif">` +
      `<h1 style="font-size:1.4em;margin-bottom:0">${escape(hospital)}</h1>` +
      `<h2 style="font-size:1.1em;margin-top:4px">Day schedule: ${escape(date)}</h2>` +
      `<p>Times in ${escape(zone)} · ${escape(String(rows.length))} appointment${rows.length === 1 ? '' : 's'}</p>` +
      table +
      `</div>`,
  };
}

/** False when the browser blocked the print window. */
export function printDaySchedule(schedule: DaySchedule): boolean {
  const { title, body } = dayScheduleHtml(schedule);
  return printPage(title, body);
}
