import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../shared/users';
import { pageTitle } from './DocumentTitle';

const hospital: PublicUser = {
  id: 'h1',
  email: 'admin@stmarys.example',
  role: 'hospital',
  firstName: 'Grace',
  lastName: 'Hopper',
  hospitalName: "St. Mary's",
  lastLoginAt: null,
};
const patient: PublicUser = { ...hospital, role: 'patient', hospitalName: null };

describe('page titles', () => {
  it('name the open tab and the hospital on the hospital dashboard', () => {
    expect(pageTitle('/hospital-dashboard', '', hospital)).toBe("Patients · St. Mary's · MedLedger");
    expect(pageTitle('/hospital-dashboard', '?tab=audit', hospital)).toBe(
      "Audit Trail · St. Mary's · MedLedger",
    );
    expect(pageTitle('/', '?tab=settings', hospital)).toBe("Settings · St. Mary's · MedLedger");
    expect(pageTitle('/hospital-dashboard', '?tab=nonsense', hospital)).toBe(
      "Patients · St. Mary's · MedLedger",
    );
  });

  it('name every other screen', () => {
    expect(pageTitle('/', '', null)).toBe('Sign In · MedLedger');
    expect(pageTitle('/', '', patient)).toBe('My Health Records · MedLedger');
    expect(pageTitle('/verify', '', null)).toBe('Verify a Record · MedLedger');
    expect(pageTitle('/hospital-login', '', null)).toBe('Healthcare Provider Login · MedLedger');
    expect(pageTitle('/no-such-page', '', null)).toBe('Page Not Found · MedLedger');
    const admin: PublicUser = { ...hospital, role: 'medledger_admin', hospitalName: null };
    expect(pageTitle('/medledger/users', '', admin)).toBe('Users · MedLedger');
    expect(pageTitle('/', '', admin)).toBe('Provider Applications · MedLedger');
  });
});
