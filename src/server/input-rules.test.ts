// The smaller input holes of issue 56 (item 11): `gender` is one of the documented values, `phone` is
// a phone number, bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) are refused
// in names and texts and stripped from uploaded file names, so `invoice\u202efdp.exe.pdf` cannot
// reach a save dialog reading "invoicefdp.exe.pdf" backwards.
import { describe, expect, it } from 'vitest';
import { GENDER_OPTIONS } from '../shared/constants.js';
import { BIDI_CONTROLS_MESSAGE } from '../shared/text.js';
import { samplePdf, uploadRecord } from './features/records/testing.js';
import { call, useCast } from './test/helpers.js';

const t = useCast();
const RLO = '\u202e';

describe('names and texts', () => {
  const bidi = [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    RLO,
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
  ];

  it('refuses every bidirectional control in a patient name, with a 400 naming the problem', async () => {
    for (const control of bidi) {
      const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, {
        firstName: `Ann${control}e`,
      });
      expect(res.statusCode, JSON.stringify(control)).toBe(400);
      expect(res.json().message).toContain(BIDI_CONTROLS_MESSAGE);
    }
  });

  it('refuses one in a sign-up name and a record title too (every text is built from text())', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'rlo@example.test',
        password: 'Str0ng!Passw0rd',
        firstName: `Eve${RLO}`,
        lastName: 'B',
        role: 'hospital',
        hospitalName: 'H',
      },
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.json().message).toContain(BIDI_CONTROLS_MESSAGE);
    const upload = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: `Report ${RLO}fdp.exe` },
      files: [{ fileName: 'a.pdf', bytes: samplePdf('bidi title') }],
    });
    expect(upload.statusCode).toBe(400);
  });

  it('keeps right-to-left text itself (Hebrew, Arabic), which needs no control', async () => {
    const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, {
      firstName: 'שרה',
      lastName: 'العلي',
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('gender and phone', () => {
  it('takes only the documented genders (any case), and nothing', async () => {
    for (const gender of [...GENDER_OPTIONS, 'Female', '', null]) {
      const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, { firstName: 'G', gender });
      expect(res.statusCode, String(gender)).toBe(201);
    }
    for (const gender of ['__proto__', 'constructor', 'unknown', 'f']) {
      const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, { firstName: 'G', gender });
      expect(res.statusCode, gender).toBe(400);
      expect(res.json().message).toMatch(/Gender must be one of male, female, other, prefer not to say/);
    }
  });

  it('takes a phone number and refuses anything else, on the hospital form and the provider application', async () => {
    for (const phone of ['+1 (555) 010-2030', '555-0100', '+44 20 7946 0958 ext. 12', '']) {
      const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, { firstName: 'P', phone });
      expect(res.statusCode, phone).toBe(201);
    }
    for (const phone of ["' or 1=1--", 'call me', '<script>', '+']) {
      const res = await call(t.app, 'POST', '/api/patients', t.hospital.cookie, { firstName: 'P', phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().message).toMatch(/valid phone number/);
    }
    const application = await t.app.inject({
      method: 'POST',
      url: '/api/provider-applications',
      payload: {
        hospitalName: 'Harbour Hospital',
        contactName: 'Dr Who',
        contactEmail: 'who@harbour.example',
        contactPhone: "' or 1=1--",
      },
    });
    expect(application.statusCode).toBe(400);
    expect(application.json().message).toMatch(/valid phone number/);
  });
});

describe('file names', () => {
  it('strips bidirectional controls from an uploaded name: stored, listed and downloaded without them', async () => {
    const upload = await uploadRecord(t.app, t.hospital.cookie, t.patientRow.id, {
      fields: { title: 'Invoice' },
      files: [{ fileName: `invoice${RLO}fdp.exe.pdf`, bytes: samplePdf('bidi name') }],
    });
    expect(upload.statusCode).toBe(201);
    const attachment = upload.json<{ attachments: { fileName: string; url: string }[] }>().attachments[0];
    expect(attachment.fileName).toBe('invoicefdp.exe.pdf');
    const download = await call(t.app, 'GET', attachment.url, t.hospital.cookie);
    expect(download.statusCode).toBe(200);
    const disposition = String(download.headers['content-disposition']);
    expect(disposition).toContain("filename*=UTF-8''invoicefdp.exe.pdf");
    expect(disposition).not.toMatch(/%E2%80%AE/i);
  });
});
