// The date of service (issue 57): on upload and amendment, in every record answer, in the ledger
// entry (so it is verified like the other fields), the lists' order, and refused when not a date.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries } from '../../db/schema.js';
import { auditLedger } from '../ledger/integrity.js';
import { ledgerContentOf } from '../ledger/testing.js';
import { useCast } from '../../test/helpers.js';
import { multipartBody, samplePdf, uploadRecord } from './testing.js';

const t = useCast({ hospitalName: 'Service Date Clinic', patient: { firstName: 'Rosa', lastName: 'Parks' } });

interface Rec {
  id: string;
  title: string;
  serviceDate: string | null;
  isBlockchainVerified: boolean;
  blockchainHash: string;
}

async function upload(title: string, serviceDate?: string) {
  const res = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
    fields: { title, ...(serviceDate !== undefined ? { serviceDate } : {}) },
    files: [{ fileName: 'scan.pdf', bytes: samplePdf(title) }],
  });
  return res;
}

function amend(id: string, fields: Record<string, string>) {
  const { payload, headers } = multipartBody(
    Object.entries({ patientId: t.patientRow.id, recordType: 'lab-results', ...fields }).map(
      ([name, value]) => ({
        name,
        value,
      }),
    ),
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/medical-records/${id}/amend`,
    headers: { ...headers, cookie: t.hospital.cookie },
    payload,
  });
}

async function contentOf(hash: string) {
  const [entry] = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.hash, hash));
  return ledgerContentOf(t.ctx.db, entry.seq);
}

const patientList = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/medical-records/${t.patientRow.id}`,
      headers: { cookie: t.hospital.cookie },
    })
  ).json<{ items: Rec[] }>().items;

describe('date of service', () => {
  it('is kept, answered, entered in the ledger and verified', async () => {
    const res = await upload('Back-scanned X-ray', '2015-06-30');
    expect(res.statusCode, res.body).toBe(201);
    const rec = res.json<Rec>();
    expect(rec.serviceDate).toBe('2015-06-30');
    expect(rec.isBlockchainVerified).toBe(true);
    const content = await contentOf(rec.blockchainHash);
    expect(content).toMatchObject({ serviceDate: '2015-06-30' });
    expect((await auditLedger(t.ctx.db, t.ctx.files)).problems).toEqual([]);
    // A record without one has no serviceDate in its entry: older entries' content is unchanged.
    const plain = (await upload('Today')).json<Rec>();
    expect(plain.serviceDate).toBeNull();
    expect(await contentOf(plain.blockchainHash)).not.toHaveProperty('serviceDate');
  });

  it('is refused when not a real date or in the future, with a message', async () => {
    for (const [value, message] of [
      ['2015-02-30', 'Date of service must be a real date'],
      ['30/06/2015', 'Date of service must be a date (YYYY-MM-DD)'],
      ['2999-01-01', 'Date of service cannot be in the future'],
      ['1800-01-01', 'Date of service is too far in the past'],
    ]) {
      const res = await upload('Bad date', value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it('sorts the lists by date of service, else by the upload, newest first', async () => {
    await upload('Old scan', '2001-01-01');
    await upload('Newer scan', '2020-01-01');
    const titles = (await patientList()).map((r) => r.title);
    const idx = (title: string) => titles.indexOf(title);
    expect(idx('Today')).toBeLessThan(idx('Newer scan'));
    expect(idx('Newer scan')).toBeLessThan(idx('Back-scanned X-ray'));
    expect(idx('Back-scanned X-ray')).toBeLessThan(idx('Old scan'));
  });

  it("an amendment keeps the corrected version's date unless it sets one", async () => {
    const first = (await upload('Biopsy', '2022-03-04')).json<Rec>();
    const kept = await amend(first.id, { title: 'Biopsy (corrected)' });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json<Rec>().serviceDate).toBe('2022-03-04');
    const changed = await amend(kept.json<Rec>().id, { title: 'Biopsy (dated)', serviceDate: '2022-03-05' });
    expect(changed.json<Rec>().serviceDate).toBe('2022-03-05');
    const cleared = await amend(changed.json<Rec>().id, { title: 'Biopsy (undated)', serviceDate: '' });
    expect(cleared.json<Rec>().serviceDate).toBeNull();
  });
});
