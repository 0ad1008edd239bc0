import { describe, expect, it } from 'vitest';
import { pageRange, patientDisplayName, patientInputSchema } from './patients';

describe('patientDisplayName', () => {
  it('prefers own names, then the account names, then e-mail, then "Unknown Patient"', () => {
    const user = { firstName: 'Acc', lastName: 'Ount', email: 'acc@x.test' };
    expect(patientDisplayName({ firstName: 'Ada', lastName: null, email: 'a@x.test', user })).toBe('Ada');
    expect(patientDisplayName({ firstName: ' ', lastName: null, email: 'a@x.test', user })).toBe('Acc Ount');
    expect(patientDisplayName({ firstName: null, lastName: null, email: 'a@x.test', user: null })).toBe(
      'a@x.test',
    );
    expect(patientDisplayName({ firstName: null, lastName: null, email: null })).toBe('Unknown Patient');
  });
});

describe('pageRange', () => {
  it('counts from 1 and shows 0-0 for an empty list', () => {
    expect(pageRange(1, 50, 50, 52)).toEqual({ from: 1, to: 50, total: 52 });
    expect(pageRange(2, 50, 2, 52)).toEqual({ from: 51, to: 52, total: 52 });
    expect(pageRange(1, 50, 0, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });
});

describe('patientInputSchema', () => {
  it('turns empty and blank values into null and trims the rest', () => {
    const parsed = patientInputSchema.parse({
      firstName: '  Ada ',
      lastName: '',
      phone: '   ',
      email: 'A@B.Example',
    });
    expect(parsed).toMatchObject({ firstName: 'Ada', lastName: null, phone: null, email: 'a@b.example' });
  });

  it('accepts a calendar date or a date-time and refuses impossible days', () => {
    expect(patientInputSchema.parse({ dateOfBirth: '2000-02-29' }).dateOfBirth).toBe('2000-02-29');
    expect(patientInputSchema.parse({ dateOfBirth: '2001-03-04T10:00:00Z' }).dateOfBirth).toBe('2001-03-04');
    expect(patientInputSchema.safeParse({ dateOfBirth: '2001-02-29' }).success).toBe(false);
    expect(patientInputSchema.safeParse({ dateOfBirth: '04/03/2001' }).success).toBe(false);
    expect(patientInputSchema.safeParse({ dateOfBirth: '2001-03-04T25:00' }).success).toBe(false);
    expect(patientInputSchema.safeParse({ dateOfBirth: '2001-03-04Tnoon' }).success).toBe(false);
  });
});
