import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_MESSAGES,
  appointmentFormSchema,
  appointmentInputSchema,
  appointmentStatusInputSchema,
  conflictLabel,
  findConflicts,
  slotInstant,
  TIME_SLOTS,
  upcomingAppointments,
  type ScheduledAppointment,
} from './appointments.js';

const at = (hhmm: string) => new Date(`2030-05-06T${hhmm}:00.000Z`);
const appt = (over: Partial<ScheduledAppointment> = {}): ScheduledAppointment => ({
  id: 'a1',
  patientId: 'p1',
  doctorName: 'Dr. Smith',
  appointmentDate: at('10:00').toISOString(),
  status: 'scheduled',
  ...over,
});
const ask = (hhmm: string, over: Partial<Parameters<typeof findConflicts>[0]> = {}) => ({
  start: at(hhmm),
  doctorName: 'Dr. Smith',
  patientId: 'p2',
  ...over,
});

describe('time slots', () => {
  it('run every 30 minutes from 09:00 to 17:30', () => {
    expect(TIME_SLOTS[0]).toBe('09:00');
    expect(TIME_SLOTS[1]).toBe('09:30');
    expect(TIME_SLOTS.at(-1)).toBe('17:30');
    expect(TIME_SLOTS).toHaveLength(18);
  });

  it('are placed in the hospital’s time zone on the chosen day', () => {
    expect(slotInstant('2030-05-06', '14:30', 'Europe/Berlin').toISOString()).toBe(
      '2030-05-06T12:30:00.000Z',
    );
    expect(slotInstant('2030-01-06', '14:30', 'Europe/Berlin').toISOString()).toBe(
      '2030-01-06T13:30:00.000Z',
    );
    expect(slotInstant('2030-05-06', '09:00', 'UTC').toISOString()).toBe('2030-05-06T09:00:00.000Z');
  });
});

describe('the conflict rule', () => {
  it('lets a slot exactly 60 minutes after the same doctor’s appointment through', () => {
    expect(findConflicts(ask('11:00'), [appt()])).toEqual([]);
    expect(findConflicts(ask('09:00'), [appt()])).toEqual([]);
  });

  it('refuses a slot 30 minutes before or after the same doctor’s appointment', () => {
    expect(findConflicts(ask('10:30'), [appt()])).toHaveLength(1);
    expect(findConflicts(ask('09:30'), [appt()])).toHaveLength(1);
    expect(findConflicts(ask('10:00'), [appt()])).toHaveLength(1);
  });

  it('ignores cancelled appointments', () => {
    expect(findConflicts(ask('10:00'), [appt({ status: 'cancelled' })])).toEqual([]);
  });

  it('ignores the appointment being edited', () => {
    expect(findConflicts(ask('10:30', { excludeId: 'a1' }), [appt()])).toEqual([]);
    expect(findConflicts(ask('10:30', { excludeId: 'other' }), [appt()])).toHaveLength(1);
  });

  it('compares doctor names without regard to case or surrounding spaces', () => {
    expect(findConflicts(ask('10:00', { doctorName: '  dr. SMITH ' }), [appt()])).toHaveLength(1);
    expect(findConflicts(ask('10:00', { doctorName: 'Dr. Smithers' }), [appt()])).toEqual([]);
  });

  it('refuses a slot where the same patient sees another doctor', () => {
    const conflicts = findConflicts(ask('10:30', { doctorName: 'Dr. Jones', patientId: 'p1' }), [appt()]);
    expect(conflicts).toHaveLength(1);
    expect(conflictLabel(conflicts)).toBe('Conflict with: Dr. Smith');
  });

  it('lets another doctor see another patient at the same time', () => {
    expect(findConflicts(ask('10:00', { doctorName: 'Dr. Jones' }), [appt()])).toEqual([]);
  });

  it('does not treat an empty doctor or a missing patient as a match', () => {
    expect(findConflicts(ask('10:00', { doctorName: '', patientId: null }), [appt()])).toEqual([]);
  });

  it('tells practitioners apart by id, even of one name', () => {
    const booked = appt({ practitionerId: 'u1' });
    expect(findConflicts(ask('10:00', { practitionerId: 'u1', patientId: 'p9' }), [booked])).toHaveLength(1);
    expect(findConflicts(ask('10:00', { practitionerId: 'u2', patientId: 'p9' }), [booked])).toEqual([]);
    // A free-text booking still conflicts by name.
    expect(findConflicts(ask('10:00', { practitionerId: 'u2', patientId: 'p9' }), [appt()])).toHaveLength(1);
  });

  it('names each conflicting doctor once', () => {
    const list = [appt(), appt({ id: 'a2', patientId: 'p2', doctorName: 'Dr. Jones ' })];
    const conflicts = findConflicts(ask('10:00', { doctorName: 'dr. smith' }), list);
    expect(conflictLabel(conflicts)).toBe('Conflict with: Dr. Smith, Dr. Jones');
  });
});

describe('the appointment form schema', () => {
  const valid = {
    patientId: '4b1f0e8e-1111-4222-8333-444455556666',
    appointmentType: 'consultation',
    doctorName: ' Dr. Smith ',
    department: 'cardiology',
    appointmentDate: '2030-05-06T10:00:00.000Z',
    location: '',
    notes: 'Bring results',
  };

  it('accepts a complete appointment, trimming the doctor and turning blanks into null', () => {
    const parsed = appointmentInputSchema.parse(valid);
    expect(parsed.doctorName).toBe('Dr. Smith');
    expect(parsed.location).toBeNull();
    expect(parsed.notes).toBe('Bring results');
  });

  for (const field of ['patientId', 'appointmentType', 'department', 'appointmentDate'] as const) {
    it(`asks for all required fields when ${field} is missing or blank`, () => {
      for (const value of [undefined, '', '   ']) {
        const result = appointmentInputSchema.safeParse({ ...valid, [field]: value });
        expect(result.success).toBe(false);
        expect(result.error?.issues[0]?.message).toBe(APPOINTMENT_MESSAGES.required);
      }
    });
  }

  it('refuses a type or department outside the lists', () => {
    expect(appointmentInputSchema.safeParse({ ...valid, appointmentType: 'massage' }).success).toBe(false);
    expect(appointmentInputSchema.safeParse({ ...valid, department: 'spa' }).success).toBe(false);
  });

  it('refuses a date that is not an ISO instant', () => {
    const result = appointmentInputSchema.safeParse({ ...valid, appointmentDate: 'tomorrow' });
    expect(result.error?.issues[0]?.message).toBe(APPOINTMENT_MESSAGES.date);
  });

  it('lets the status dropdown set scheduled, confirmed and completed only', () => {
    for (const status of ['scheduled', 'confirmed', 'completed']) {
      expect(appointmentStatusInputSchema.safeParse({ status }).success).toBe(true);
    }
    for (const status of ['cancelled', 'pending', '', undefined]) {
      expect(appointmentStatusInputSchema.safeParse({ status }).success).toBe(false);
    }
  });

  describe('the appointment dialog schema', () => {
    const { appointmentDate: _instant, ...fields } = valid;
    const dialog = {
      ...fields,
      location: ' ',
      patientLabel: 'Ann Lee (MRN1)',
      date: '2030-05-06',
      slot: '10:00',
    };
    const picks = ['patientId', 'appointmentType', 'department', 'date', 'slot'] as const;

    it('names every unpicked select and the blank doctor with the required message', () => {
      const empty = Object.fromEntries(picks.map((key) => [key, null]));
      const result = appointmentFormSchema.safeParse({ ...dialog, ...empty, doctorName: '  ' });
      const messages = Object.fromEntries(
        result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [],
      );
      const required = Object.fromEntries(
        [...picks, 'doctorName'].map((k) => [k, APPOINTMENT_MESSAGES.required]),
      );
      expect(messages).toEqual(required);
    });

    it('gives the call its fields trimmed, blank optional text as null', () => {
      const parsed = appointmentFormSchema.parse(dialog);
      expect([parsed.doctorName, parsed.location, parsed.slot]).toEqual(['Dr. Smith', null, '10:00']);
      expect(appointmentFormSchema.safeParse({ ...dialog, department: 'astrology' }).success).toBe(false);
    });

    it('needs no typed doctor once a practitioner is chosen, and a typed one without', () => {
      const withPractitioner = appointmentFormSchema.parse({
        ...dialog,
        doctorName: '',
        practitionerId: 'u-1',
      });
      expect(withPractitioner.practitionerId).toBe('u-1');
      const neither = appointmentFormSchema.safeParse({ ...dialog, doctorName: ' ', practitionerId: null });
      expect(neither.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['doctorName', APPOINTMENT_MESSAGES.required],
      ]);
    });
  });
});

describe('upcoming appointments', () => {
  it('keeps today’s (even earlier today) and later ones, not cancelled, soonest first', () => {
    const now = new Date(2030, 4, 6, 15, 0);
    const list = [
      { id: 'later', appointmentDate: new Date(2030, 4, 9, 9).toISOString(), status: 'scheduled' as const },
      {
        id: 'this-morning',
        appointmentDate: new Date(2030, 4, 6, 9).toISOString(),
        status: 'confirmed' as const,
      },
      {
        id: 'yesterday',
        appointmentDate: new Date(2030, 4, 5, 16).toISOString(),
        status: 'scheduled' as const,
      },
      {
        id: 'cancelled',
        appointmentDate: new Date(2030, 4, 7, 9).toISOString(),
        status: 'cancelled' as const,
      },
    ];
    expect(upcomingAppointments(list, now).map((a) => a.id)).toEqual(['this-morning', 'later']);
  });
});
