// Grants that a revocation races (docs/decisions.md#consent, issue 56 item 2), on PostgreSQL with
// two real server processes: share links made through one while the patient's consent is switched
// off through the other, and family invitations sent and accepted through one while the contact is
// changed or revoked through the other. Each round fires both sides at once, in both orders and
// with the roles of the processes swapped; whatever the order, a revocation must win over every
// grant it raced: no link or grant survives it, and none comes back when access is switched on again.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerOf, linksIn, outboxMessages } from './mail/read-message.js';
import { multipartBody, samplePdf } from './features/records/testing.js';
import { STRONG_PASSWORD } from './test/helpers.js';
import {
  callProcess,
  processDatabase,
  PROCESS_ORIGIN,
  startServerProcess,
  type ServerProcess,
} from './test/server-process.js';

let database: Awaited<ReturnType<typeof processDatabase>>;
let sql: pg.Client;
const running: ServerProcess[] = [];
const dataDirs: string[] = [];
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  database = await processDatabase();
  const env = {
    DATABASE_URL: database.url,
    FILE_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LEDGER_SIGNING_KEY: crypto.randomBytes(32).toString('hex'),
    PUBLIC_URL: PROCESS_ORIGIN,
    // Every round signs a relative up from this one address.
    REGISTER_MAX_PER_IP: '1000',
  };
  [a, b] = await Promise.all(
    [0, 1].map(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-races-'));
      dataDirs.push(dataDir);
      const p = await startServerProcess({ ...env, DATA_DIR: dataDir });
      running.push(p);
      return p;
    }),
  );
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
}, 180_000);

afterAll(async () => {
  await sql?.end();
  await Promise.all(running.map((p) => p.stop().catch(() => {})));
  await database?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(res: Response, status: number): Promise<T> {
  const body = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${body}`);
  return JSON.parse(body) as T;
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await callProcess(base, 'POST', '/api/auth/login', undefined, {
    email,
    password: STRONG_PASSWORD,
  });
  await json(res, 200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const newEmail = (prefix: string) => `${prefix}.${crypto.randomUUID()}@example.test`;

/** A hospital (through a) with a patient who has signed up (through b). */
async function hospitalAndPatient() {
  const hospitalEmail = newEmail('hospital');
  await json(
    await callProcess(a.url, 'POST', '/api/auth/register', undefined, {
      email: hospitalEmail,
      password: STRONG_PASSWORD,
      firstName: 'Hana',
      lastName: 'Ward',
      role: 'hospital',
      hospitalName: 'Race Hospital',
    }),
    201,
  );
  const hospital = await signIn(a.url, hospitalEmail);
  const row = await json<{ id: string; patientId: string; activationCode: string }>(
    await callProcess(a.url, 'POST', '/api/patients', hospital, { firstName: 'Maria', lastName: 'Lopez' }),
    201,
  );
  const patientEmail = newEmail('patient');
  await json(
    await callProcess(b.url, 'POST', '/api/auth/register', undefined, {
      email: patientEmail,
      password: STRONG_PASSWORD,
      firstName: 'Maria',
      lastName: 'Lopez',
      role: 'patient',
      mrn: row.patientId,
      activationCode: row.activationCode,
    }),
    201,
  );
  // The signup answer carries no user (docs/decisions.md#accounts-and-signup): ask who signed in.
  const patient = await signIn(b.url, patientEmail);
  const me = await json<{ user: { id: string } }>(
    await callProcess(b.url, 'GET', '/api/auth/me', patient),
    200,
  );
  return { hospital, patientRowId: row.id, userId: me.user.id, patient };
}

/** Every message either process has mailed to `to`, oldest first within each outbox. */
const mailsTo = (to: string) =>
  dataDirs.flatMap((dir) => outboxMessages(path.join(dir, 'outbox')).filter((m) => headerOf(m, 'To') === to));

const shareTokenMailedTo = (to: string) => {
  const link = mailsTo(to)
    .flatMap(linksIn)
    .find((l) => new URL(l).pathname.startsWith('/shared/'));
  return link ? new URL(link).pathname.split('/')[2] : undefined;
};

/** The invitation tokens mailed to `to`, by either process. */
const invitationsMailedTo = (to: string) =>
  mailsTo(to)
    .flatMap(linksIn)
    .filter((l) => new URL(l).pathname === '/signup')
    .map((l) => new URL(l).searchParams.get('invite') ?? '');

describe('share links made while the consent is switched off', () => {
  it('never outlive the consent-off, in either order, and never open when consent comes back', async () => {
    const { hospital, patient, patientRowId, userId } = await hospitalAndPatient();
    const { payload, headers } = multipartBody([
      { name: 'patientId', value: patientRowId },
      { name: 'recordType', value: 'lab-results' },
      { name: 'title', value: 'Blood panel' },
      { name: 'shareWithSpecialists', value: 'true' },
      { name: 'files', fileName: 'report.pdf', bytes: samplePdf('race') },
    ]);
    const uploaded = await fetch(`${a.url}/api/medical-records`, {
      method: 'POST',
      headers: { ...headers, cookie: hospital, origin: PROCESS_ORIGIN },
      body: new Uint8Array(payload),
    });
    const record = await json<{ id: string }>(uploaded, 201);
    const consent = (base: string, on: boolean) =>
      callProcess(base, 'PUT', `/api/consent/${userId}`, patient, {
        shareWithSpecialists: on,
        shareWithFamily: true,
      });

    const ROUNDS = 8;
    const SHARES = 8;
    const outcomes = { made: 0, refused: 0 };
    const made: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await json(await consent(a.url, true), 200);
      // Both orders: the consent-off goes first in some rounds, last in others, through either process.
      const [sharer, switcher] = round % 2 === 0 ? [a, b] : [b, a];
      const offAfter = (round % 4) * 4;
      const recipients = Array.from({ length: SHARES }, () => newEmail('specialist'));
      const shares = recipients.map(async (recipientEmail, i) => {
        await pause((i * offAfter) / SHARES);
        const res = await callProcess(
          sharer.url,
          'POST',
          `/api/medical-records/${record.id}/shares`,
          hospital,
          {
            recipientEmail,
            expiresInHours: 24,
          },
        );
        return { recipientEmail, status: res.status, body: await res.text() };
      });
      const off = pause(offAfter).then(() => consent(switcher.url, false));
      const [settled, offRes] = await Promise.all([Promise.all(shares), off]);
      expect(offRes.status).toBe(200);
      for (const s of settled) {
        // Before the consent-off (then revoked by it) or after it (then refused with the reason).
        expect([201, 409], s.body).toContain(s.status);
        if (s.status === 201) {
          outcomes.made++;
          made.push(s.recipientEmail);
        } else {
          outcomes.refused++;
          expect(JSON.parse(s.body).message).toMatch(/Sharing with specialists is turned off/);
        }
      }
      const listed = await json<{
        items: { recipientEmail: string; active: boolean; revokedAt: string | null }[];
      }>(await callProcess(a.url, 'GET', `/api/medical-records/${record.id}/shares`, hospital), 200);
      const thisRound = listed.items.filter((l) => recipients.includes(l.recipientEmail));
      expect(thisRound.filter((l) => l.revokedAt === null)).toEqual([]);
    }
    // Consent on again: not one link made in a race with a consent-off opens.
    await json(await consent(b.url, true), 200);
    const listed = await json<{ items: { recipientEmail: string; active: boolean }[] }>(
      await callProcess(b.url, 'GET', `/api/medical-records/${record.id}/shares`, hospital),
      200,
    );
    expect(listed.items.filter((l) => l.active)).toEqual([]);
    const opened = [];
    for (const recipient of made.slice(0, 60)) {
      const token = shareTokenMailedTo(recipient);
      expect(token, recipient).toBeDefined();
      opened.push((await callProcess(a.url, 'GET', `/api/shares/${token}`)).status);
    }
    expect(opened.filter((s) => s !== 404)).toEqual([]);
    // Both orders did happen: links made before a consent-off, and refused after one.
    expect(outcomes.made).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 300_000);
});

describe('family invitations raced by a change of the contact', () => {
  const relative = (email: string, canAccessRecords = true) => ({
    firstName: 'Ana',
    lastName: 'Lopez',
    relationship: 'child',
    email,
    canAccessRecords,
  });
  const grantsOf = async (contactId: string) =>
    (await sql.query('select family_user_id from family_grants where contact_id = $1', [contactId])).rows;
  const unusedLinksOf = async (contactId: string) =>
    (
      await sql.query<{ email: string }>(
        'select email from family_invitations where contact_id = $1 and used_at is null',
        [contactId],
      )
    ).rows.map((r) => r.email);

  it('an acceptance racing Revoke or an e-mail change leaves no grant, and re-ticking gives none back', async () => {
    // A relative who already has an account (through another patient) accepts each new invitation
    // signed in, with no password hashing before its transaction, so the two sides meet closely.
    const other = await hospitalAndPatient();
    const familyEmail = newEmail('relative');
    await json(
      await callProcess(a.url, 'POST', '/api/family-contacts', other.patient, relative(familyEmail)),
      201,
    );
    const seen = new Set<string>();
    const nextInvitation = () => {
      const token = invitationsMailedTo(familyEmail).find((t) => !seen.has(t));
      if (token) seen.add(token);
      return token;
    };
    await json(
      await callProcess(b.url, 'POST', '/api/auth/register', undefined, {
        email: familyEmail,
        password: STRONG_PASSWORD,
        firstName: 'Ana',
        lastName: 'Lopez',
        role: 'family',
        inviteToken: nextInvitation(),
      }),
      201,
    );
    const familyIn = { a: await signIn(a.url, familyEmail), b: await signIn(b.url, familyEmail) };
    const { patient, patientRowId } = await hospitalAndPatient();
    const reaches = async (base: string, cookie: string) =>
      (
        await json<{ patients: { id: string }[] }>(
          await callProcess(base, 'GET', '/api/proxy/patients', cookie),
          200,
        )
      ).patients.some((p) => p.id === patientRowId);

    const ROUNDS = 16;
    const outcomes = { accepted: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const [acceptor, changer] = round % 2 === 0 ? [a, b] : [b, a];
      const cookie = acceptor === a ? familyIn.a : familyIn.b;
      const added = await json<{ id: string }>(
        await callProcess(changer.url, 'POST', '/api/family-contacts', patient, relative(familyEmail)),
        201,
      );
      const token = nextInvitation();
      expect(token).toBeDefined();
      // Half the rounds revoke, the others re-point the contact to another address; the acceptance
      // starts first in some rounds and second in others, a few milliseconds apart.
      const revoking = round % 4 < 2;
      const change = () =>
        revoking
          ? callProcess(changer.url, 'DELETE', `/api/proxy/holders/${added.id}`, patient)
          : callProcess(
              changer.url,
              'PUT',
              `/api/family-contacts/${added.id}`,
              patient,
              relative(newEmail('other')),
            );
      const accept = () =>
        callProcess(acceptor.url, 'POST', '/api/proxy/accept', cookie, { inviteToken: token });
      const gap = round % 8;
      const [accepted, changed] =
        round % 3 === 0
          ? await Promise.all([accept(), pause(gap).then(change)])
          : await Promise.all([pause(gap).then(accept), change()]);
      expect(changed.status).toBe(200);
      // Accepted before the change (its grant then ended) or refused after it (the link was void).
      expect([200, 400], await accepted.text()).toContain(accepted.status);
      if (accepted.status === 200) outcomes.accepted++;
      else outcomes.refused++;
      expect(await grantsOf(added.id)).toEqual([]);
      expect(await reaches(acceptor.url, cookie)).toBe(false);
      if (revoking) {
        // Ticking "Can Access Medical Records" again after Revoke asks for a new invitation.
        await json(
          await callProcess(
            changer.url,
            'PUT',
            `/api/family-contacts/${added.id}`,
            patient,
            relative(familyEmail),
          ),
          200,
        );
        expect(await grantsOf(added.id)).toEqual([]);
        expect(await reaches(changer.url, changer === a ? familyIn.a : familyIn.b)).toBe(false);
        nextInvitation(); // the new one, left unused
      }
      // Done with this contact: the patient keeps at most 50.
      await json(await callProcess(changer.url, 'DELETE', `/api/family-contacts/${added.id}`, patient), 200);
    }
    expect(outcomes.accepted + outcomes.refused).toBe(ROUNDS);
  }, 300_000);

  it('"Send invitation" racing an e-mail change never leaves a link to the old address', async () => {
    const { patient } = await hospitalAndPatient();
    for (let round = 0; round < 8; round++) {
      const [inviter, changer] = round % 2 === 0 ? [a, b] : [b, a];
      const first = newEmail('first');
      const added = await json<{ id: string }>(
        await callProcess(changer.url, 'POST', '/api/family-contacts', patient, relative(first)),
        201,
      );
      const second = newEmail('second');
      const invite = () =>
        callProcess(inviter.url, 'POST', `/api/family-contacts/${added.id}/invite`, patient);
      const change = () =>
        callProcess(changer.url, 'PUT', `/api/family-contacts/${added.id}`, patient, relative(second));
      const [invited, changed] =
        round % 4 < 2
          ? await Promise.all([invite(), pause(3).then(change)])
          : await Promise.all([pause(3).then(invite), change()]);
      expect(changed.status).toBe(200);
      expect(invited.status, await invited.text()).toBe(200);
      // Whatever the order, the only live link goes to the address the contact has now.
      expect(await unusedLinksOf(added.id)).toEqual([second]);
    }
  }, 300_000);
});

describe('share links made while their maker is being suspended', () => {
  it('are stopped by the suspension, in either order, and end with a plain reactivation', async () => {
    // The suspension runs in this test's own process (the admin service on the same PostgreSQL),
    // the share creations in a server process: three processes, one database.
    const { connect } = await import('./db/connect.js');
    const { suspendUser, reactivateUser } = await import('./features/admin/service.js');
    const admin = await connect({ databaseUrl: database.url, migrate: false });
    const [adminRow] = (
      await sql.query<{ id: string }>(
        `insert into users (email, password, role, first_name, last_name)
         values ($1, 'x', 'medledger_admin', 'Ada', 'Admin') returning id`,
        [newEmail('admin')],
      )
    ).rows;
    const adminActor = { id: adminRow.id, ip: '127.0.0.1' };
    try {
      const ROUNDS = 6;
      const SHARES = 6;
      const outcomes = { made: 0, refused: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const { hospital, patient, patientRowId, userId } = await hospitalAndPatient();
        const { payload, headers } = multipartBody([
          { name: 'patientId', value: patientRowId },
          { name: 'recordType', value: 'lab-results' },
          { name: 'title', value: 'Blood panel' },
          { name: 'shareWithSpecialists', value: 'true' },
          { name: 'files', fileName: 'report.pdf', bytes: samplePdf('suspend') },
        ]);
        const record = await json<{ id: string }>(
          await fetch(`${a.url}/api/medical-records`, {
            method: 'POST',
            headers: { ...headers, cookie: hospital, origin: PROCESS_ORIGIN },
            body: new Uint8Array(payload),
          }),
          201,
        );
        await json(
          await callProcess(b.url, 'PUT', `/api/consent/${userId}`, patient, {
            shareWithSpecialists: true,
            shareWithFamily: false,
          }),
          200,
        );
        const sharer = round % 2 === 0 ? a : b;
        const suspendAfter = (round % 3) * 5;
        const shares = Array.from({ length: SHARES }, async (_, i) => {
          await pause((i * suspendAfter) / SHARES);
          const res = await callProcess(
            sharer.url,
            'POST',
            `/api/medical-records/${record.id}/shares`,
            patient,
            {
              recipientEmail: newEmail('specialist'),
              expiresInHours: 24,
            },
          );
          return { status: res.status, body: await res.text() };
        });
        const suspension = pause(suspendAfter).then(() =>
          suspendUser(admin.db, adminActor, userId, new Date()),
        );
        const [settled] = await Promise.all([Promise.all(shares), suspension]);
        for (const s of settled) {
          // Made before the suspension (then stopped by it), or refused after it: by the ended
          // session (401) or by the account's lock (403).
          expect([201, 401, 403], s.body).toContain(s.status);
          if (s.status === 201) outcomes.made++;
          else outcomes.refused++;
        }
        const live = await sql.query(
          `select id from share_links where created_by = $1 and revoked_at is null and suspended_at is null`,
          [userId],
        );
        expect(live.rows, `round ${round}: a link escaped the suspension`).toEqual([]);
        await reactivateUser(admin.db, adminActor, userId, false, new Date());
        const afterReactivation = await sql.query(
          `select id from share_links where created_by = $1 and revoked_at is null`,
          [userId],
        );
        expect(afterReactivation.rows, `round ${round}: a link survived a plain reactivation`).toEqual([]);
      }
      expect(outcomes.made).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    } finally {
      await admin.close();
    }
  }, 300_000);
});
