import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../../shared/appointments';
import { byDay, dayKey, monthGrid, quickStats, scheduleFor, weekRange } from './calendar';

const appt = (local: Date, over: Partial<Appointment> = {}): Appointment => ({
  id: Math.random().toString(36),
  patientId: 'p',
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
    expect(dayKey(start)).toBe('2026-11-22');
    expect(dayKey(end)).toBe('2026-11-29');
  });
});

describe('schedule and stats', () => {
  const now = new Date(2026, 10, 25, 8); // Wednesday
  const list = [
    appt(new Date(2026, 10, 25, 9)),
    appt(new Date(2026, 10, 25, 11), { status: 'cancelled', doctorName: 'Dr. Gone' }),
    appt(new Date(2026, 10, 28, 10), { status: 'pending', department: 'neurology' }),
    appt(new Date(2026, 10, 29, 10), { status: 'confirmed', appointmentType: 'surgery' }),
  ];

  it('leaves cancelled appointments off the calendar', () => {
    expect(byDay(list).get('2026-11-25')).toHaveLength(1);
  });

  it('finds appointments by patient name, MRN and notes too', () => {
    const day = [
      appt(new Date(2026, 10, 26, 9), { patientName: 'Maria Garcia', patientMrn: 'MRN2026000123' }),
      appt(new Date(2026, 10, 26, 10), { notes: 'Bring previous X-rays' }),
    ];
    expect(scheduleFor(day, '2026-11-26', 'garcia', 'all')).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', '000123', 'all')).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', 'x-ray', 'all')).toHaveLength(1);
    expect(scheduleFor(day, '2026-11-26', 'nobody', 'all')).toHaveLength(0);
  });

  it('filters the day by doctor, type or department and by status', () => {
    expect(scheduleFor(list, '2026-11-25', '', 'all')).toHaveLength(2);
    expect(scheduleFor(list, '2026-11-25', 'gone', 'all')).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-25', '', 'scheduled')).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-28', 'NEURO', 'all')).toHaveLength(1);
    expect(scheduleFor(list, '2026-11-29', 'surg', 'confirmed')).toHaveLength(1);
  });

  it('counts today and this week without cancelled ones', () => {
    expect(quickStats(list, now)).toEqual({ today: 1, thisWeek: 2, scheduled: 1, pending: 1 });
  });
});
