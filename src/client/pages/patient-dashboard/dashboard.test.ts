import { describe, expect, it } from 'vitest';
import {
  activityDescription,
  newNotificationCount,
  profileSummary,
  recordDownload,
  verifiedCount,
} from './dashboard';

const records = [
  { createdAt: '2025-01-01T10:00:00.000Z', isBlockchainVerified: true },
  { createdAt: '2025-01-03T10:00:00.000Z', isBlockchainVerified: false },
  { createdAt: '2025-01-05T10:00:00.000Z', isBlockchainVerified: true },
];

describe('patient dashboard helpers', () => {
  it('counts records created after the last sign-in as new, all of them without one', () => {
    expect(newNotificationCount(records, '2025-01-02T00:00:00.000Z')).toBe(2);
    expect(newNotificationCount(records, '2025-01-05T10:00:00.000Z')).toBe(0);
    expect(newNotificationCount(records, null)).toBe(3);
  });

  it('counts verified records', () => {
    expect(verifiedCount(records)).toBe(2);
    expect(verifiedCount([])).toBe(0);
  });

  it("uses the spec's fallbacks in the profile summary and shows Phone only when present", () => {
    const rows = profileSummary(null, (v) => v);
    expect(rows).toEqual([
      { label: 'Patient ID', value: 'Not assigned' },
      { label: 'Date of Birth', value: 'Not provided' },
      { label: 'Gender', value: 'Not specified' },
      { label: 'Primary Care', value: 'Not assigned' },
      { label: 'Insurance', value: 'Not provided' },
    ]);
    const full = profileSummary(
      {
        patientId: 'MRN2025123456',
        dateOfBirth: '1990-01-02',
        gender: 'female',
        primaryCarePhysician: 'Dr. Grey',
        insuranceProvider: 'Acme',
        insurancePolicy: 'P-1',
        phone: '555',
      },
      (v) => `date:${v}`,
    );
    expect(full.map((r) => r.value)).toEqual([
      'MRN2025123456',
      'date:1990-01-02',
      'Female',
      'Dr. Grey',
      'Acme · Policy P-1',
      '555',
    ]);
  });

  it('describes activity by its details, else by its action', () => {
    expect(activityDescription({ action: 'record_view', details: 'Viewed "Scan"' })).toBe('Viewed "Scan"');
    expect(activityDescription({ action: 'consent_change', details: null })).toBe(
      'Your sharing consent was changed',
    );
    expect(activityDescription({ action: 'odd_thing', details: '' })).toBe('odd thing action performed');
  });

  it('downloads the last segment of fileUrl under the file name, else "<title>.pdf"', () => {
    expect(recordDownload({ fileUrl: '/api/download/abc_DEF-123', fileName: 'x.png', title: 'T' })).toEqual({
      url: '/api/download/abc_DEF-123',
      fileName: 'x.png',
    });
    expect(recordDownload({ fileUrl: '/api/download/k', fileName: null, title: 'Scan' })?.fileName).toBe(
      'Scan.pdf',
    );
    expect(recordDownload({ fileUrl: null, fileName: null, title: 'Scan' })).toBeNull();
  });
});
