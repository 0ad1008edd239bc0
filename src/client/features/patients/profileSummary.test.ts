import { describe, expect, it } from 'vitest';
import { profileSummary } from './profileSummary';

describe('profile summary', () => {
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
});
