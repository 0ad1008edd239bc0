import { describe, expect, it } from 'vitest';
import {
  addPatient,
  auditRows,
  call,
  enableTwoFactor,
  signedInHospital,
  signedInPatient,
  signedInStaff,
  useCast,
} from '../../test/helpers.js';

let clock = new Date();
const t = useCast({ options: { now: () => clock }, hospital: false });

const put = (cookie: string | undefined, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/hospital/settings', headers: cookie ? { cookie } : {}, payload });

describe('hospital settings', () => {
  it('starts with the registered name and e-mail, two-factor sign-in off until set up', async () => {
    const h = await signedInHospital(t.app, 'St. Mary');
    const res = await call(t.app, 'GET', '/api/hospital/settings', h.cookie);
    expect(res.json()).toEqual({
      hospitalName: 'St. Mary',
      adminEmail: h.email,
      twoFactorEnabled: false,
      blockchainVerificationEnabled: true,
      staffTwoFactorRequired: false,
      timeZone: 'UTC',
    });
  });

  it("shows each member their own two-factor state, not the organization account's", async () => {
    const h = await signedInHospital(t.app, 'St. Luke');
    const clinician = await signedInStaff(t, h.cookie, 'clinician');
    await enableTwoFactor(t, clinician.cookie);
    const twoFactorOf = async (cookie: string) =>
      (await call(t.app, 'GET', '/api/hospital/settings', cookie)).json().twoFactorEnabled;
    expect(await twoFactorOf(clinician.cookie)).toBe(true);
    expect(await twoFactorOf(h.cookie)).toBe(false);
    // Saving answers the saver's own state too.
    expect(
      (await put(h.cookie, { hospitalName: 'St. Luke', adminEmail: h.email })).json().twoFactorEnabled,
    ).toBe(false);
  });

  it('saves the name and administrator e-mail, shows the name on the session user, and audits it', async () => {
    const h = await signedInHospital(t.app, 'Old Name');
    const res = await put(h.cookie, { hospitalName: '  New Name ', adminEmail: 'Admin@New.Example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hospitalName: 'New Name', adminEmail: 'admin@new.example' });
    const me = await call(t.app, 'GET', '/api/auth/me', h.cookie);
    expect(me.json().user.hospitalName).toBe('New Name');
    const [entry] = await auditRows(t, { userId: h.userId, action: 'settings_change' });
    expect(entry).toMatchObject({
      hospitalId: h.userId,
      details: 'Changed hospital name and administrator e-mail',
    });
  });

  it('refuses a short name and a bad e-mail with the validation messages', async () => {
    const h = await signedInHospital(t.app);
    const short = await put(h.cookie, { hospitalName: 'A', adminEmail: 'a@b.example' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Hospital name must be at least 2 characters');
    const bad = await put(h.cookie, { hospitalName: 'Good', adminEmail: 'nope' });
    expect(bad.json().message).toBe('Please enter a valid email address');
    const missing = await put(h.cookie, {});
    expect(missing.statusCode).toBe(400);
  });

  it('answers 403 to a patient, 401 signed out and 402 after the trial', async () => {
    const h = await signedInHospital(t.app);
    const p = await addPatient(t.app, h.cookie);
    const patient = await signedInPatient(t.app, p.patientId);
    expect((await put(patient.cookie, { hospitalName: 'X Y', adminEmail: 'a@b.example' })).statusCode).toBe(
      403,
    );
    expect((await call(t.app, 'GET', '/api/hospital/settings', patient.cookie)).statusCode).toBe(403);
    expect((await put(undefined, { hospitalName: 'X Y', adminEmail: 'a@b.example' })).statusCode).toBe(401);
    clock = new Date(Date.now() + 8 * 86400_000);
    try {
      expect((await put(h.cookie, { hospitalName: 'X Y', adminEmail: 'a@b.example' })).statusCode).toBe(402);
    } finally {
      clock = new Date();
    }
  });
});
