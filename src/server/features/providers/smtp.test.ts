// End to end over real SMTP: a loopback smtp-server receives what the app sends, and the link in
// the received message completes the registration.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkTo } from '../../mail/read-message.js';
import { call, login, signedInAdmin, STRONG_PASSWORD, uniqueEmail } from '../../test/helpers.js';
import { useAppWithSmtp } from '../../test/smtp.js';

const t = useAppWithSmtp();
const apply = (hospitalName: string, contactName: string, contactEmail: string) =>
  call(t.app, 'POST', '/api/provider-applications', undefined, { hospitalName, contactName, contactEmail });

describe('approval e-mail over SMTP', () => {
  it('sends the registration link to the contact, and that link completes registration', async () => {
    const admin = await signedInAdmin(t);
    const contactEmail = uniqueEmail('smtp');
    const applied = await apply('Harbour Hospital', 'Hari Harbour', contactEmail);
    expect(applied.statusCode).toBe(201);
    const id = applied.json().application.id as string;

    const reviewed = await call(t.app, 'PATCH', `/api/provider-applications/${id}/review`, admin.cookie, {
      status: 'approved',
    });
    expect(reviewed.statusCode).toBe(200);

    expect(t.received).toHaveLength(1);
    const [mail] = t.received;
    expect(mail.to).toEqual([contactEmail]);
    expect(mail.from).toBe('no-reply@medledger.test');
    expect(mail.raw).toMatch(/Subject: Your MedLedger application has been approved/);
    // Nothing was written to the outbox: with SMTP configured, mail goes by SMTP only.
    expect(t.ctx.mail.mode).toBe('smtp');
    expect(fs.existsSync(t.ctx.mail.outboxDir)).toBe(false);

    const link = linkTo(mail.raw, '/provider-register');
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token');
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/provider-register',
      payload: { token, password: STRONG_PASSWORD, firstName: 'Hari', lastName: 'Harbour' },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json().user).toMatchObject({ email: contactEmail, hospitalName: 'Harbour Hospital' });
    await login(t.app, contactEmail);
  });

  it('sends the rejection by SMTP too', async () => {
    const admin = await signedInAdmin(t);
    const contactEmail = uniqueEmail('smtp-reject');
    const applied = await apply('Quay Clinic', 'Quinn Quay', contactEmail);
    const before = t.received.length;
    const res = await call(
      t.app,
      'PATCH',
      `/api/provider-applications/${applied.json().application.id}/review`,
      admin.cookie,
      { status: 'rejected' },
    );
    expect(res.statusCode).toBe(200);
    expect(t.received).toHaveLength(before + 1);
    expect(t.received.at(-1)!.to).toEqual([contactEmail]);
    expect(linkTo(t.received.at(-1)!.raw, '/provider-register')).toBeUndefined();
  });
});
