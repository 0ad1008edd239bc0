// The upload form: its validation, the multipart body it sends (through the real upload helper to
// the faked network), what it says after, and an amendment's body.
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MedicalRecord } from '../../../shared/records';
import { hospitalUser, renderApp } from '../../test/render';
import type { Routes } from '../../test/network';
import { UploadRecordForm } from './UploadRecordForm';

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

const patients = {
  body: {
    items: [
      {
        id: 'p-1',
        patientId: 'MRN2025000001',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        user: null,
        dateOfBirth: '1985-12-10',
      },
    ],
    total: 1,
    page: 1,
    pageSize: 20,
  },
};

function renderForm(props: Parameters<typeof UploadRecordForm>[0], routes: Routes) {
  const onSaved = vi.fn();
  const rendered = renderApp(<UploadRecordForm {...props} onSaved={onSaved} />, {
    user: hospitalUser,
    routes: { 'GET /api/patients': patients, ...routes },
  });
  return { ...rendered, onSaved };
}

/** The body's fields by name (files by their names). */
const fields = (entries: unknown) =>
  Object.fromEntries(
    (entries as [string, FormDataEntryValue][]).map(([name, value]) => [
      name,
      value instanceof File ? `file:${value.name}` : value,
    ]),
  );

async function pick(user: ReturnType<typeof renderForm>['user'], label: RegExp, option: string) {
  await user.click(screen.getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('UploadRecordForm', () => {
  it('names each required field left empty and sends nothing', async () => {
    const { user, network } = renderForm({}, {});
    await user.click(screen.getByRole('button', { name: 'Upload Record' }));
    expect(await screen.findByText('Please fill in all required fields.')).toBeInTheDocument();
    expect(screen.getByText('Choose a patient')).toBeInTheDocument();
    expect(screen.getByText('Choose a record type')).toBeInTheDocument();
    expect(screen.getByText('Enter a title')).toBeInTheDocument();
    expect(network.to('POST /api/medical-records')).toHaveLength(0);
  });

  it('uploads the picked patient, the fields and the files, fields first, and says so', async () => {
    const { user, network, onSaved } = renderForm(
      {},
      { 'POST /api/medical-records': { status: 201, body: { ...record, title: 'Chest X-ray' } } },
    );
    await user.type(screen.getByPlaceholderText('Search by name, email or MRN'), 'ada');
    // The picker searches the server once the typing pauses, then offers what it found.
    await expect.poll(() => network.to('GET /api/patients').at(-1)?.url).toContain('search=ada');
    await user.click(await screen.findByRole('option', { name: /Ada Lovelace \(MRN2025000001\)/ }));
    expect(screen.getByPlaceholderText('Search by name, email or MRN')).toHaveValue(
      'Ada Lovelace (MRN2025000001)',
    );
    await pick(user, /^Record Type/, 'Imaging');
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), '  Chest X-ray ');
    const file = new File(['%PDF-1.4 scan'], 'scan.pdf', { type: 'application/pdf' });
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    expect(await screen.findByText('scan.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload Record' }));

    expect(
      await screen.findByText('"Chest X-ray" was uploaded and entered in the ledger.'),
    ).toBeInTheDocument();
    const [call] = network.to('POST /api/medical-records');
    expect(fields(call.body)).toEqual({
      patientId: 'p-1',
      practitionerId: '',
      recordType: 'imaging',
      title: 'Chest X-ray',
      doctorName: '',
      description: '',
      department: '',
      serviceDate: '',
      consentProvided: 'true',
      shareWithSpecialists: 'false',
      shareWithFamily: 'false',
      draft: 'false',
      files: 'file:scan.pdf',
    });
    expect((call.body as [string][]).at(-1)?.[0]).toBe('files');
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ title: 'Chest X-ray' }));
  });

  it("shows the server's reason when it refuses the upload", async () => {
    const { user } = renderForm(
      { fixedPatient: { id: 'p-1', label: 'Ada Lovelace (MRN2025000001)' } },
      {
        'POST /api/medical-records': {
          status: 422,
          body: { message: 'scan.exe: this file type is not accepted' },
        },
      },
    );
    await pick(user, /^Record Type/, 'Imaging');
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Scan');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('scan.exe: this file type is not accepted')).toBeInTheDocument();
    expect(screen.getByText('Upload Failed')).toBeInTheDocument();
  });

  it('amends a record: its own patient, no draft flag, and a sharing switch only when changed here', async () => {
    const { user, network } = renderForm(
      { amending: record },
      { 'POST /api/medical-records/r-1/amend': { status: 201, body: { ...record, id: 'r-2' } } },
    );
    expect(screen.getByRole('textbox', { name: 'Patient' })).toHaveValue('Ada Lovelace (MRN2025000001)');
    await user.click(screen.getByRole('checkbox', { name: 'Share with family members' }));
    await user.click(screen.getByRole('button', { name: 'Save Amendment' }));
    expect(
      await screen.findByText('The corrected version of "Blood test" was entered in the ledger.'),
    ).toBeInTheDocument();
    const sent = fields(network.to('POST /api/medical-records/r-1/amend')[0].body);
    expect(sent).toMatchObject({ patientId: 'p-1', title: 'Blood test', shareWithFamily: 'true' });
    expect(sent).not.toHaveProperty('shareWithSpecialists');
    expect(sent).not.toHaveProperty('draft');
  });
});
