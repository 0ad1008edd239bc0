import { describe, expect, it } from 'vitest';
import {
  acceptedExtension,
  matchesSignature,
  MISSING_INFORMATION,
  RECORD_FORM_MESSAGES,
  recordFieldsSchema,
  recordFormSchema,
  shareSummary,
} from './records';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('accepted files', () => {
  it('knows the five extensions in any case and nothing else', () => {
    expect(['a.pdf', 'b.DOCX', 'c.Jpg', 'd.jpeg', 'e.png'].map(acceptedExtension)).toEqual([
      'pdf',
      'docx',
      'jpg',
      'jpeg',
      'png',
    ]);
    for (const name of ['a.exe', 'b.pdf.exe', 'noext', 'c.doc', '.pdf.', 'x.gif'])
      expect(acceptedExtension(name)).toBeNull();
  });

  it('checks the content signature of each type', () => {
    expect(matchesSignature('pdf', new TextEncoder().encode('%PDF-1.7'))).toBe(true);
    expect(matchesSignature('docx', bytes(0x50, 0x4b, 0x03, 0x04, 0))).toBe(true);
    expect(matchesSignature('jpg', bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(matchesSignature('png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe(true);
    expect(matchesSignature('png', bytes(0x89, 0x50, 0x4e, 0x47))).toBe(false);
    expect(matchesSignature('pdf', bytes(0xff, 0xd8, 0xff))).toBe(false);
    expect(matchesSignature('pdf', bytes())).toBe(false);
  });
});

describe('recordFieldsSchema', () => {
  it('requires patient, record type and title with the spec message', () => {
    for (const missing of ['patientId', 'recordType', 'title']) {
      const fields: Record<string, string> = { patientId: 'p', recordType: 'imaging', title: 'T' };
      delete fields[missing];
      const result = recordFieldsSchema.safeParse(fields);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe(MISSING_INFORMATION);
    }
  });

  it('reads form booleans, keeps the defaults when absent and leaves an absent sharing switch unset', () => {
    const parsed = recordFieldsSchema.parse({
      patientId: 'p',
      recordType: 'imaging',
      title: 'T',
      shareWithFamily: 'true',
    });
    expect(parsed).toMatchObject({ consentProvided: true, shareWithFamily: true, draft: false });
    // Unset, not false: the upload takes the switch of the version it continues (an amendment's
    // predecessor, a draft), else off (records/service.ts).
    expect(parsed.shareWithSpecialists).toBeUndefined();
    expect(
      recordFieldsSchema.parse({
        patientId: 'p',
        recordType: 'imaging',
        title: 'T',
        consentProvided: 'false',
      }).consentProvided,
    ).toBe(false);
  });
});

describe('recordFormSchema (the upload form)', () => {
  const empty = { patientId: null, patientLabel: null, recordType: null, title: ' ', doctorName: '' };
  const switches = { consentProvided: true, shareWithSpecialists: false, shareWithFamily: false };

  it('names each missing required field, and sends what the multipart call accepts', () => {
    const result = recordFormSchema.safeParse({ ...empty, ...switches, description: '', department: null });
    const messages = result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual([
      `patientId: ${RECORD_FORM_MESSAGES.patient}`,
      `recordType: ${RECORD_FORM_MESSAGES.recordType}`,
      `title: ${RECORD_FORM_MESSAGES.title}`,
    ]);
    const filled = {
      ...empty,
      patientId: 'p1',
      recordType: 'lab-results',
      title: ' CBC ',
      department: 'cardiology',
    };
    const parsed = recordFormSchema.parse({ ...filled, ...switches, description: ' ' });
    const sent = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v === null ? '' : String(v)]));
    expect(recordFieldsSchema.parse(sent)).toMatchObject({
      title: 'CBC',
      description: null,
      consentProvided: true,
    });
  });
});

describe('shareSummary', () => {
  it('is "Record: <title> - <description>"', () => {
    expect(shareSummary({ title: 'X-ray', description: 'Left knee' })).toBe('Record: X-ray - Left knee');
  });
});
