// "Share with a Specialist" is off, with the reason, while the record's own Specialists switch is
// off (issue 57: the link was offered, then refused).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MedicalRecord } from '../../../shared/records';
import { hospitalUser, renderApp } from '../../test/render';
import { RecordSharing } from './RecordSharing';

const record: MedicalRecord = {
  id: 'r-1',
  patientId: 'p-1',
  hospitalId: 'u-hospital',
  practitionerId: null,
  title: 'Blood test',
  description: null,
  recordType: 'lab-results',
  fileName: 'blood.pdf',
  fileUrl: '/api/download/a1',
  doctorName: 'Dr. Grey',
  department: null,
  serviceDate: null,
  status: 'final',
  consentProvided: true,
  shareWithSpecialists: true,
  shareWithFamily: false,
  isBlockchainVerified: true,
  blockchainHash: 'ab'.repeat(32),
  viewedByPatient: false,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  providerName: "St. Mary's",
  providerVerified: true,
  patient: { id: 'p-1', mrn: 'MRN2025000001', name: 'Ada Lovelace' },
  attachments: [],
  documentStatus: 'current',
  supersedesId: null,
  supersededById: null,
  enteredInError: null,
};

const routes = { 'GET /api/medical-records/r-1/shares': { body: { items: [] } } };

describe('RecordSharing', () => {
  it('offers the link while the record is shared with specialists', () => {
    renderApp(<RecordSharing record={record} />, { user: hospitalUser, routes });
    expect(screen.getByRole('button', { name: 'Share with a Specialist' })).toBeEnabled();
    expect(screen.queryByText(/switch first/)).not.toBeInTheDocument();
  });

  it('disables it, saying why, while the record keeps specialists out', () => {
    renderApp(<RecordSharing record={{ ...record, shareWithSpecialists: false }} />, {
      user: hospitalUser,
      routes,
    });
    const button = screen.getByRole('button', { name: 'Share with a Specialist' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(/Share with specialists.+switch first/);
  });
});
