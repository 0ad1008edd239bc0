import { describe, expect, it } from 'vitest';
import { registerPayload, roleFromQuery, signupProblem, type SignupValues } from './signupForm';

const base: SignupValues = {
  role: 'patient',
  mrn: 'mrn2026123456',
  activationCode: ' ABCDE-FGHJK ',
  firstName: ' Ada ',
  lastName: 'Lovelace',
  email: 'ada@example.com ',
  password: 'abcdefgh',
  confirmPassword: 'abcdefgh',
  inviteToken: '',
  hospitalName: 'Should not be sent',
};

describe('signup form', () => {
  it('accepts only patient and hospital from the query string', () => {
    expect(roleFromQuery('hospital')).toBe('hospital');
    expect(roleFromQuery('patient')).toBe('patient');
    expect(roleFromQuery('medledger_admin')).toBeNull();
    // A family account comes only from an invitation link (?invite=), never from ?role=.
    expect(roleFromQuery('family')).toBeNull();
    expect(roleFromQuery(null)).toBeNull();
  });

  it('sends the invitation token for a family member, and no MRN or hospital name', () => {
    const payload = registerPayload({ ...base, role: 'family', inviteToken: ' abc.def ' });
    expect(payload).toEqual({
      email: 'ada@example.com',
      password: 'abcdefgh',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'family',
      inviteToken: 'abc.def',
    });
  });

  it('reports a mismatch before a short password', () => {
    expect(signupProblem({ password: 'short', confirmPassword: 'other' })?.title).toBe('Password Mismatch');
  });

  it('refuses a password under 8 characters and accepts exactly 8', () => {
    expect(signupProblem({ password: 'abcdefg', confirmPassword: 'abcdefg' })).toEqual({
      title: 'Weak Password',
      message: 'Password must be at least 8 characters long.',
    });
    expect(signupProblem({ password: 'abcdefgh', confirmPassword: 'abcdefgh' })).toBeNull();
  });

  it('sends the MRN upper-cased and the activation code for a patient, and no hospital name', () => {
    const payload = registerPayload(base);
    expect(payload).toEqual({
      email: 'ada@example.com',
      password: 'abcdefgh',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'patient',
      mrn: 'MRN2026123456',
      activationCode: 'ABCDE-FGHJK',
    });
  });

  it('sends the hospital name for a hospital and no MRN', () => {
    const payload = registerPayload({ ...base, role: 'hospital', hospitalName: ' General ' });
    expect(payload.hospitalName).toBe('General');
    expect(payload).not.toHaveProperty('mrn');
    expect(payload).not.toHaveProperty('activationCode');
  });
});
