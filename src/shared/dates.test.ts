import { describe, expect, it } from 'vitest';
import { appointmentInputSchema, appointmentRangeQuerySchema } from './appointments.js';
import { isWithinYearBounds } from './dates.js';
import { auditQuerySchema } from './hospital.js';

const booking = {
  patientId: 'p1',
  appointmentType: 'consultation',
  doctorName: 'Dr. Grey',
  department: 'cardiology',
};

describe('year bounds 1900-2200 (issue 16 items 4 and 5)', () => {
  it('accepts the bounds and refuses years outside them or unparseable values', () => {
    expect(isWithinYearBounds('1900-01-01T00:00:00Z')).toBe(true);
    expect(isWithinYearBounds('2200-12-31T23:59:59Z')).toBe(true);
    expect(isWithinYearBounds('1899-12-31T23:59:59Z')).toBe(false);
    expect(isWithinYearBounds('2201-01-01T00:00:00Z')).toBe(false);
    expect(isWithinYearBounds('not a date')).toBe(false);
  });

  it.each(['+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '0000-01-01T00:00:00Z', '30000'])(
    'audit-logs from=%s is refused with a message',
    (from) => {
      const result = auditQuerySchema.safeParse({ from });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/from must be/);
    },
  );

  it('audit-logs accepts an ordinary day', () => {
    expect(
      auditQuerySchema.safeParse({ from: '2026-11-23T00:00:00Z', to: '2026-11-24T00:00:00Z' }).success,
    ).toBe(true);
  });

  it('appointment ranges refuse year 0000 and 9999 and accept 2026', () => {
    expect(appointmentRangeQuerySchema.safeParse({ from: '0000-01-01T00:00:00Z' }).success).toBe(false);
    expect(appointmentRangeQuerySchema.safeParse({ to: '9999-12-31T23:59:59Z' }).success).toBe(false);
    expect(appointmentRangeQuerySchema.safeParse({ from: '2026-01-01T00:00:00Z' }).success).toBe(true);
  });

  it('an appointment on 9999-12-31 is refused with a message; one in 2027 is accepted', () => {
    const far = appointmentInputSchema.safeParse({ ...booking, appointmentDate: '9999-12-31T23:59:59Z' });
    expect(far.success).toBe(false);
    expect(far.error?.issues[0]?.message).toBe(
      'The appointment date must be between the years 1900 and 2200',
    );
    expect(
      appointmentInputSchema.safeParse({ ...booking, appointmentDate: '2027-03-01T09:00:00Z' }).success,
    ).toBe(true);
  });
});
