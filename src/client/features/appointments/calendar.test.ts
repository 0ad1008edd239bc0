import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../shared/appointments';
import { instantIn } from '../../../shared/time';
import {
  byDay,
  calendarRange,
  dayKey,
  loadedMonth,
  monthGrid,
  quickStats,
  scheduleFor,
  shiftDayKey,
  weekDays,
  weekRange,
  whenForViewer,
} from './calendar';

// The hospital is in Los Angeles; the tests give its wall-clock times, whatever zone runs them.
const ZONE = 'America/Los_Angeles';
const at = (day: string, time: string) => instantIn(day, time, ZONE);

const appt = (local: Date, over: Partial<Appointment> = {}): Appointment => ({
  id: Math.random().toString(36),
  patientId: 'p',
  practitionerId: null,
  hospitalId: 'h',
  patientName: 'Ada Lovelace',
  patientMrn: 'MRN',
  doctorName: 'Dr. Smith',
  department: 'cardiology',
  appointmentType: 'consultation',
  appointmentDate: local.toISOString(),
  location: null,
  notes: null,
  status: 'scheduled',
  blockchainHash: null,
  createdAt: '',
  updatedAt: '',
  timeZone: ZONE,
  ...over,
});

describe('the month grid', () => {
  it('starts each week on Sunday and covers the whole month', () => {
    const weeks = monthGrid(new Date(2026, 10, 15)); // November 2026 starts on a Sunday
    expect(weeks[0]?.[0] && dayKey(weeks[0][0])).toBe('2026-11-01');
    expect(weeks.every((w) => w.length === 7 && w[0]?.getDay() === 0)).toBe(true);
    expect(weeks.flat().some((d) => dayKey(d) === '2026-11-30')).toBe(true);
    const march = monthGrid(new Date(2026, 2, 1)); // March 2026 starts on a Sunday too; check a Wednesday month
    expect(march[0]?.[0]?.getDay()).toBe(0);
    const april = monthGrid(new Date(2026, 3, 10)); // April 1st 2026 is a Wednesday
    expect(dayKey(april[0][0])).toBe('2026-03-29');
  });

  it('has a Sunday-to-Saturday week', () => {
    const { start, end } = weekRange(new Date(2026, 10, 25, 15));
    expect(start).toBe('2026-11-22');
    expect(end).toBe('2026-11-29');
  });
});

describe('schedule and stats', () => {
  const now = at('2026-11-25', '08:00'); // Wednesday
  const list = [
    appt(at('2026-11-25', '09:00')),
    appt(at('2026-11-25', '11:00'), { status: 'cancelled', doctorName: 'Dr. Gone' }),
    appt(at('2026-11-28', '10:00'), { status: 'pending', department: 'neurology' }),
    appt(at('2026-11-29', '10:00'), { status: 'confirmed', appointmentType: 'surgery' }),
  ];

  it('leaves cancelled appointments off the calendar', () => {
    expect(byDay(list, ZONE).get('2026-11-25')).toHaveLength(1);
  });

  it('finds appointments by patient name, MRN and notes too', () => {
    const day = [
      appt(at('2026-11-26', '09:00'), { patientName: 'Maria Garcia', patientMrn: 'MRN2026000123' }),
      appt(at('2026-11-26', '10:00'), { notes: 'Bring previous X-rays' }),
    ];
    expect(scheduleFor(day, '2026-11-26', 'garcia', 'all', ZONE)).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', '000123', 'all', ZONE)).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', 'x-ray', 'all', ZONE)).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', 'nobody', 'all', ZONE)).toHaveLength(0);
  });

  it('filters the day by doctor, type or department and by status', () => {
    expect(scheduleFor(list, '2026-11-25', '', 'all', ZONE)).toHaveLength(2);
    expect(scheduleFor(list, '2026-11-25', 'gone', 'all', ZONE)).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-25', '', 'scheduled', ZONE)).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-28', 'NEURO', 'all', ZONE)).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-29', 'surg', 'confirmed', ZONE)).toHaveLength(1);
  });

  it('counts today and this week without cancelled ones', () => {
    expect(quickStats(list, now, ZONE)).toEqual({ today: 1, thisWeek: 2, scheduled: 1, pending: 1 });
  });

  it('puts a late-evening appointment on the hospital’s day, not the UTC one', () => {
    const late = appt(at('2026-11-25', '17:30')); // 01:30 UTC on the 26th
    expect(new Date(late.appointmentDate).toISOString()).toBe('2026-11-26T01:30:00.000Z');
    expect([...byDay([late], ZONE).keys()]).toEqual(['2026-11-25']);
    expect([...byDay([late], 'Europe/Berlin').keys()]).toEqual(['2026-11-26']);
  });
});

describe('an appointment seen from another time zone', () => {
  const a = appt(at('2026-11-25', '10:00'));
  it('is shown in the viewer’s zone with both zones named', () => {
    expect(whenForViewer(a, 'Europe/Berlin')).toEqual({
      local: 'Nov 25, 2026 at 7:00 PM (Europe/Berlin)',
      hospital: 'Nov 25, 2026, 10:00 AM at the hospital (America/Los_Angeles)',
    });
  });
  it('names no zone when the clocks agree', () => {
    expect(whenForViewer(a, ZONE)).toEqual({ local: 'Nov 25, 2026 at 10:00 AM', hospital: null });
  });
});

describe('the week and day views', () => {
  it('gives the Sunday-first week of a day, across a month end', () => {
    expect(weekDays(new Date(2030, 6, 3)).map(dayKey)).toEqual([
      '2030-06-30',
      '2030-07-01',
      '2030-07-02',
      '2030-07-03',
      '2030-07-04',
      '2030-07-05',
      '2030-07-06',
    ]);
    expect(shiftDayKey('2030-06-28', 7)).toBe('2030-07-05');
    expect(shiftDayKey('2030-03-01', -1)).toBe('2030-02-28');
  });

  it("loads the selected day's month grid in the week and day views, which holds its whole week", () => {
    const shown = new Date(2030, 0, 1);
    expect(loadedMonth('month', shown, '2030-07-03')).toBe(shown);
    for (const selected of ['2030-07-01', '2030-06-30', '2030-07-31']) {
      const { from, to } = calendarRange(loadedMonth('week', shown, selected), '2030-07-15', ZONE);
      for (const day of weekDays(new Date(`${selected}T12:00:00`))) {
        const instant = at(dayKey(day), '12:00').toISOString();
        expect(instant >= from && instant <= to).toBe(true);
      }
    }
  });

  it("sorts each day's appointments by time", () => {
    const late = appt(at('2030-07-01', '15:00'), { patientName: 'Late' });
    const early = appt(at('2030-07-01', '09:00'), { patientName: 'Early' });
    expect(
      byDay([late, early], ZONE)
        .get('2030-07-01')
        ?.map((a) => a.patientName),
    ).toEqual(['Early', 'Late']);
  });
});
