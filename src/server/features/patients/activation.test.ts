// Patient activation codes (issue 9, docs/decisions.md#identity): the code the hospital gets when it
// adds a patient claims the account once; wrong, expired, used and replaced codes are all refused
// with one message; a new code can be issued; the link is mailed when an e-mail is on file.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_CODE_ALPHABET, normalizeActivationCode } from '../../../shared/activation.js';
import { activationCodes, patients } from '../../db/schema.js';
import { linkTo, outboxMessages } from '../../mail/read-message.js';
import {
  accountIdOf,
  addPatient,
  auditRows,
  call,
  createTestApp,
  patientSignup,
  signedInHospital,
  signedInPatient,
  type TestApp,
  uniqueEmail,
} from '../../test/helpers.js';
import { MRN_NOT_MATCHED } from '../auth/service.js';

let t: TestApp;
/** The app's clock: tests move it to let codes expire. */
let clock = new Date();
let hospital: { cookie: string; userId: string };
let otherHospital: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({ activationCodeDays: 30 }, { now: () => clock });
  hospital = await signedInHospital(t.app);
  otherHospital = await signedInHospital(t.app, 'Other Hospital');
});
afterAll(async () => t?.close());

let address = 0;
/** Each sign-up from its own address, so that only the per-MRN limit could ever interfere. */
const register = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload,
    remoteAddress: `10.9.${Math.floor(++address / 250)}.${address % 250}`,
  });

const reissue = (patientRowId: string, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/patients/${patientRowId}/activation-code`, headers: { cookie } });

const claimedBy = async (patientRowId: string) =>
  (await t.ctx.db.select().from(patients).where(eq(patients.id, patientRowId)))[0].userId;

/** A code of the right shape that is not `code`. */
function anotherCode(code: string): string {
  const plain = code.replace('-', '');
  const last = ACTIVATION_CODE_ALPHABET[(ACTIVATION_CODE_ALPHABET.indexOf(plain[9]) + 1) % 32];
  return `${plain.slice(0, 9)}${last}`;
}

describe('the activation code of a new patient', () => {
  it('is returned once, grouped, 10 Crockford characters; only a keyed hash is stored; the add is audited', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    expect(p.activationCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const [row] = await t.ctx.db.select().from(activationCodes).where(eq(activationCodes.patientId, p.id));
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(p.activationCode.replace('-', ''));
    expect(row.expiresAt.getTime() - clock.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    // Not shown again: the patient's own answer carries no code.
    const again = await call(t.app, 'GET', `/api/patients/${p.id}`, hospital.cookie);
    expect(again.json()).not.toHaveProperty('activationCode');
    const [audit] = await auditRows(t, { entityId: p.id });
    expect(audit).toMatchObject({
      action: 'patient_create',
      details: expect.stringMatching(/activation code issued/),
    });
  });

  it('gives different codes to different patients', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) codes.add((await addPatient(t.app, hospital.cookie)).activationCode);
    expect(codes.size).toBe(5);
  });

  it('claims the account once, typed without the dash and in lower case; the code then dies', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    const typed = p.activationCode.replace('-', '').toLowerCase();
    const signup = patientSignup({ ...p, activationCode: typed });
    const res = await register(signup);
    expect(res.statusCode).toBe(201);
    expect(await claimedBy(p.id)).toBe(await accountIdOf(t.app, signup.email));
    expect(await t.ctx.db.select().from(activationCodes).where(eq(activationCodes.patientId, p.id))).toEqual(
      [],
    );
  });

  it('refuses a wrong, an expired, a used and a replaced code, and a missing MRN match, all with one message', async () => {
    const answers: { case: string; status: number; message: string }[] = [];
    const attempt = async (name: string, payload: Record<string, unknown>) => {
      const res = await register(payload);
      answers.push({ case: name, status: res.statusCode, message: res.json().message });
    };

    const wrong = await addPatient(t.app, hospital.cookie);
    await attempt(
      'wrong code',
      patientSignup({ ...wrong, activationCode: anotherCode(wrong.activationCode) }),
    );
    await attempt('malformed code', patientSignup({ ...wrong, activationCode: 'not-a-code' }));
    await attempt(
      'unknown MRN',
      patientSignup({ patientId: 'MRN2026000000', activationCode: wrong.activationCode }),
    );

    const expired = await addPatient(t.app, hospital.cookie);
    clock = new Date(clock.getTime() + 30 * 24 * 60 * 60 * 1000 + 1000);
    try {
      await attempt('expired code', patientSignup(expired));
    } finally {
      clock = new Date();
    }

    const used = await addPatient(t.app, hospital.cookie);
    expect((await register(patientSignup(used))).statusCode).toBe(201);
    await attempt('used code', patientSignup(used));

    const replaced = await addPatient(t.app, hospital.cookie);
    const fresh = await reissue(replaced.id, hospital.cookie);
    expect(fresh.statusCode).toBe(200);
    await attempt('replaced code', patientSignup(replaced));

    const withEmail = await addPatient(t.app, hospital.cookie, {
      firstName: 'Em',
      email: uniqueEmail('on-file'),
    });
    await attempt('other e-mail than on file', patientSignup(withEmail));

    expect(answers).toEqual(answers.map((a) => ({ case: a.case, status: 400, message: MRN_NOT_MATCHED })));
    for (const p of [wrong, expired, replaced, withEmail]) expect(await claimedBy(p.id)).toBeNull();

    // The refused attempts did not use the codes up: the right ones still work.
    expect((await register(patientSignup(wrong))).statusCode).toBe(201);
    const newCode = fresh.json<{ activationCode: string }>().activationCode;
    expect((await register(patientSignup({ ...replaced, activationCode: newCode }))).statusCode).toBe(201);
    expect((await register(patientSignup(withEmail, withEmail.email ?? ''))).statusCode).toBe(201);
  });

  it('needs the code: an MRN alone is refused as a missing field', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    const { activationCode: _code, ...withoutCode } = patientSignup(p);
    const res = await register(withoutCode);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Activation code is required');
    expect(await claimedBy(p.id)).toBeNull();
  });

  it('claims nothing when MRNs are guessed without their codes', async () => {
    const targets = await Promise.all(Array.from({ length: 3 }, () => addPatient(t.app, hospital.cookie)));
    const statuses: number[] = [];
    for (const target of targets) {
      for (const guess of ['00000-00000', 'ZZZZZ-ZZZZZ', anotherCode(target.activationCode)]) {
        statuses.push((await register(patientSignup({ ...target, activationCode: guess }))).statusCode);
      }
    }
    expect(new Set(statuses)).toEqual(new Set([400]));
    for (const target of targets) expect(await claimedBy(target.id)).toBeNull();
  });
});

describe('POST /api/patients/:id/activation-code', () => {
  it('issues a new code (the old one void), audited, for the hospital that added the patient only', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    const res = await reissue(p.id, hospital.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      activationCode: string;
      activationCodeExpiresAt: string;
      activationLinkEmailed: boolean;
    }>();
    expect(body.activationCode).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(body.activationCode).not.toBe(p.activationCode);
    expect(body.activationLinkEmailed).toBe(false);
    const audits = await auditRows(t, { entityId: p.id });
    expect(audits.map((a) => a.action)).toContain('activation_code_issue');

    expect((await reissue(p.id, otherHospital.cookie)).statusCode).toBe(404);
    expect((await reissue('00000000-0000-4000-8000-000000000000', hospital.cookie)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/patients/${p.id}/activation-code` })).statusCode,
    ).toBe(401);
    const patient = await signedInPatient(t.app, { ...p, activationCode: body.activationCode });
    expect((await reissue(p.id, patient.cookie)).statusCode).toBe(403);
  });

  it('answers 409 once the patient has signed up', async () => {
    const p = await addPatient(t.app, hospital.cookie);
    await signedInPatient(t.app, p);
    const res = await reissue(p.id, hospital.cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already created their account/);
  });
});

describe('the activation mail', () => {
  it('goes to a patient with an e-mail, its link opening the signup page with the MRN and the code', async () => {
    const email = uniqueEmail('mailed');
    const before = outboxMessages(t.ctx.mail.outboxDir).length;
    const p = await addPatient(t.app, hospital.cookie, { firstName: 'Mae', lastName: 'Link', email });
    expect(p).toMatchObject({ activationLinkEmailed: true });
    await t.ctx.mail.idle();
    const messages = outboxMessages(t.ctx.mail.outboxDir).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`To: ${email}`);
    const link = new URL(linkTo(messages[0], '/signup') ?? '');
    expect(link.searchParams.get('mrn')).toBe(p.patientId);
    expect(link.searchParams.get('code')).toBe(p.activationCode);
    // The address on file, which sign-up requires, so the form starts with it.
    expect(link.searchParams.get('email')).toBe(email);

    // The link's values claim the account (with the e-mail on file).
    const res = await register(
      patientSignup(
        {
          patientId: link.searchParams.get('mrn') ?? '',
          activationCode: link.searchParams.get('code') ?? '',
        },
        link.searchParams.get('email') ?? '',
      ),
    );
    expect(res.statusCode).toBe(201);
  });

  it('is not sent without an e-mail, and a new code is mailed again', async () => {
    await t.ctx.mail.idle(); // earlier tests' mails (signup welcomes) are written after their answers
    const before = outboxMessages(t.ctx.mail.outboxDir).length;
    await addPatient(t.app, hospital.cookie, { firstName: 'No', lastName: 'Mail' });
    const withEmail = await addPatient(t.app, hospital.cookie, {
      firstName: 'Re',
      email: uniqueEmail('again'),
    });
    const fresh = (await reissue(withEmail.id, hospital.cookie)).json<{ activationCode: string }>();
    await t.ctx.mail.idle();
    const messages = outboxMessages(t.ctx.mail.outboxDir).slice(before);
    expect(messages).toHaveLength(2);
    const codes = messages.map((m) => new URL(linkTo(m, '/signup') ?? '').searchParams.get('code'));
    // Both codes are mailed; the mail jobs may be delivered in either order.
    expect([...codes].sort()).toEqual([withEmail.activationCode, fresh.activationCode].sort());
  });
});

describe('normalizeActivationCode', () => {
  it('reads codes the Crockford way', () => {
    expect(normalizeActivationCode('abcde-fghjk')).toBe('ABCDEFGHJK');
    expect(normalizeActivationCode(' 0O1IL-22222 ')).toBe('0011122222');
    expect(normalizeActivationCode('ABCDE FGHJK')).toBe('ABCDEFGHJK');
    expect(normalizeActivationCode('ABCDE-FGHJU')).toBeNull(); // U is not in the alphabet
    expect(normalizeActivationCode('ABCDE-FGHJ')).toBeNull();
    expect(normalizeActivationCode('ABCDE-FGHJKM')).toBeNull();
  });
});
