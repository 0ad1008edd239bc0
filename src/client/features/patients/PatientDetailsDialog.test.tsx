// A patient's file as each staff role sees it: a clinician gets View, Download, Upload and Export;
// front desk sees the records listed, without them, and is told why (docs/decisions.md#staff-accounts).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Patient } from '../../../shared/patients';
import type { MedicalRecord } from '../../../shared/records';
import { STAFF_MESSAGES } from '../../../shared/staff';
import type { PublicUser } from '../../../shared/users';
import { hospitalUser, renderApp } from '../../test/render';
import { PatientDetailsDialog } from './PatientDetailsDialog';

const patient: Patient = {
  id: 'p1',
  patientId: 'MRN-1',
  userId: null,
  createdByHospitalId: hospitalUser.id,
  firstName: 'Maria',
  lastName: 'Lopez',
  email: null,
  dateOfBirth: null,
  gender: null,
  phone: null,
  insuranceProvider: null,
  insurancePolicy: null,
  primaryCarePhysician: null,
  address: null,
  preferredLanguage: null,
  emergencyContactName: null,
  emergencyContactPhone: null,
  createdAt: '2026-01-02T10:00:00.000Z',
  user: null,
  lastVisit: null,
};

const record = (over: Partial<MedicalRecord> = {}): MedicalRecord => ({
  id: 'r1',
  patientId: 'p1',
  hospitalId: hospitalUser.id,
  title: 'Blood panel',
  description: null,
  recordType: 'lab-results',
  fileName: null,
  fileUrl: null,
  doctorName: null,
  practitionerId: null,
  department: null,
  serviceDate: null,
  status: 'final',
  consentProvided: true,
  shareWithSpecialists: false,
  shareWithFamily: false,
  isBlockchainVerified: true,
  blockchainHash: null,
  viewedByPatient: false,
  createdAt: '2026-01-03T10:00:00.000Z',
  updatedAt: '2026-01-03T10:00:00.000Z',
  providerName: "St. Mary's",
  providerVerified: true,
  patient: { id: 'p1', mrn: 'MRN-1', name: 'Maria Lopez' },
  attachments: [],
  documentStatus: 'current',
  supersedesId: null,
  supersededById: null,
  enteredInError: null,
  ...over,
});

const staff = (staffRole: PublicUser['staffRole']): PublicUser => ({
  ...hospitalUser,
  id: 'u-staff',
  hospitalId: hospitalUser.id,
  staffRole,
});

const routes = {
  'GET /api/medical-records/p1': { body: { items: [record()], total: 1, page: 1, pageSize: 20 } },
};

describe('PatientDetailsDialog', () => {
  it('gives a clinician View, Download, Upload and Export', async () => {
    renderApp(<PatientDetailsDialog patient={patient} onClose={() => {}} />, {
      user: staff('clinician'),
      routes,
    });
    const row = await screen.findByTestId('patient-record-row');
    expect(within(row).getByText('Blood panel')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'View Blood panel' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /Download/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Record' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /FHIR/ })).toBeInTheDocument();
    expect(screen.queryByText(STAFF_MESSAGES.noRecordContents)).not.toBeInTheDocument();
  });

  it('lists the records for front desk without open, download, upload or export, and says why', async () => {
    renderApp(<PatientDetailsDialog patient={patient} onClose={() => {}} />, {
      user: staff('front_desk'),
      routes,
    });
    const row = await screen.findByTestId('patient-record-row');
    expect(within(row).getByText('Blood panel')).toBeInTheDocument();
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row).queryByText(/file/)).not.toBeInTheDocument();
    expect(screen.getByText(STAFF_MESSAGES.noRecordContents)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Record' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /FHIR/ })).not.toBeInTheDocument();
  });
});
