// The appointment dialog: required fields before any call, the slots the conflict rule refuses,
// and the instant an edit sends for the wall-clock slot picked in the hospital's zone.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Appointment } from '../../../shared/appointments';
import { hospitalUser, renderApp } from '../../test/render';
import { AppointmentFormDialog } from './AppointmentFormDialog';

const hospital = { ...hospitalUser, timeZone: 'America/New_York' };

const appointment = (over: Partial<Appointment>): Appointment => ({
  id: 'a-1',
  patientId: 'p-1',
  practitionerId: null,
  hospitalId: hospital.id,
  patientName: 'Ada Lovelace',
  patientMrn: 'MRN2025000001',
  doctorName: 'Dr. Grey',
  department: 'cardiology',
  appointmentType: 'consultation',
  // 10:00 in New York (summer time, UTC-4).
  appointmentDate: '2030-06-03T14:00:00.000Z',
  location: 'Room 4',
  notes: null,
  status: 'scheduled',
  blockchainHash: null,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  timeZone: 'America/New_York',
  ...over,
});

describe('AppointmentFormDialog', () => {
  it('names the missing fields of a new appointment and sends nothing', async () => {
    const { user, network } = renderApp(
      <AppointmentFormDialog
        opened
        editing={null}
        defaultDay="2030-06-03"
        appointments={[]}
        onClose={vi.fn()}
      />,
      {
        user: hospital,
        routes: { 'GET /api/patients': { body: { items: [], total: 0, page: 1, pageSize: 20 } } },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Schedule New Appointment' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await screen.findByText('Missing Information')).toBeInTheDocument();
    for (const field of [/^Appointment Type/, /^Doctor Name/, /^Department/]) {
      expect(within(dialog).getByLabelText(field, { selector: 'input' })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    }
    expect(network.to('POST /api/appointments')).toHaveLength(0);
  });

  it("marks the doctor's booked slot, and moves the appointment to the slot picked, in the hospital's zone", async () => {
    const onClose = vi.fn();
    const editing = appointment({});
    const other = appointment({ id: 'a-2', patientId: 'p-2', appointmentDate: '2030-06-03T15:00:00.000Z' });
    const { user, network } = renderApp(
      <AppointmentFormDialog
        opened
        editing={editing}
        defaultDay="2030-06-03"
        appointments={[editing, other]}
        onClose={onClose}
      />,
      {
        user: hospital,
        routes: {
          'GET /api/patients': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
          'PUT /api/appointments/a-1': { body: editing },
        },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Appointment' });
    const slots = within(dialog).getByRole('group', { name: 'Time slots' });
    expect(within(slots).getByRole('button', { name: '10:00 AM', pressed: true })).toBeInTheDocument();
    expect(within(slots).getByRole('button', { name: '11:00 AM Booked' })).toBeDisabled();

    await user.click(within(slots).getByRole('button', { name: '2:30 PM' }));
    await user.type(within(dialog).getByLabelText('Notes'), 'Bring the scan');
    await user.click(within(dialog).getByRole('button', { name: 'Update Appointment' }));

    expect(await screen.findByText('The appointment has been updated.')).toBeInTheDocument();
    expect(network.to('PUT /api/appointments/a-1').map((c) => c.body)).toEqual([
      {
        patientId: 'p-1',
        appointmentType: 'consultation',
        doctorName: 'Dr. Grey',
        practitionerId: null,
        department: 'cardiology',
        location: 'Room 4',
        notes: 'Bring the scan',
        // 14:30 in New York is 18:30 UTC.
        appointmentDate: '2030-06-03T18:30:00.000Z',
      },
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it("books the signed-in clinician by default, and a practitioner's slot by id, not by name", async () => {
    const clinician = { ...hospital, id: 'u-ada', hospitalId: hospital.id, staffRole: 'clinician' as const };
    const practitioners = [
      { id: 'u-ada', name: 'Ada Okafor', department: 'Cardiology', staffRole: 'clinician' },
      { id: 'u-ben', name: 'Ben Okafor', department: null, staffRole: 'clinician' },
    ];
    // Ada is booked at 10:00; a free-text "Ben Okafor" at 11:00 is another person to Ben's id.
    const adaBooked = appointment({
      id: 'a-9',
      patientId: 'p-9',
      practitionerId: 'u-ada',
      doctorName: 'Ada Okafor',
    });
    const freeText = appointment({
      id: 'a-8',
      patientId: 'p-8',
      doctorName: 'Dr. Grey',
      appointmentDate: '2030-06-03T15:00:00.000Z',
    });
    const { user, network } = renderApp(
      <AppointmentFormDialog
        opened
        editing={null}
        defaultDay="2030-06-03"
        appointments={[adaBooked, freeText]}
        onClose={vi.fn()}
      />,
      {
        user: clinician,
        routes: {
          'GET /api/patients': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
          'GET /api/hospital/practitioners': { body: practitioners },
        },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Schedule New Appointment' });
    const select = within(dialog).getByLabelText('Practitioner', { selector: 'input' });
    await vi.waitFor(() => expect(select).toHaveValue('Ada Okafor · Cardiology'));
    // With a practitioner chosen there is no free-text doctor to type.
    expect(within(dialog).queryByLabelText(/^Doctor Name/)).not.toBeInTheDocument();
    const slots = within(dialog).getByRole('group', { name: 'Time slots' });
    expect(within(slots).getByRole('button', { name: '10:00 AM Booked' })).toBeDisabled();
    expect(within(slots).getByRole('button', { name: '11:00 AM' })).toBeEnabled();

    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Ben Okafor · Clinician' }));
    expect(within(slots).getByRole('button', { name: '10:00 AM' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await screen.findByText('Missing Information')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/^Doctor Name/)).not.toBeInTheDocument();
    expect(network.to('POST /api/appointments')).toHaveLength(0);
  });

  it('moves a booking to another practitioner by id, sending no typed doctor', async () => {
    const practitioners = [
      { id: 'u-ada', name: 'Ada Okafor', department: 'Cardiology', staffRole: 'clinician' },
      { id: 'u-ben', name: 'Ben Okafor', department: null, staffRole: 'clinician' },
    ];
    const editing = appointment({ practitionerId: 'u-ada', doctorName: 'Ada Okafor' });
    const { user, network } = renderApp(
      <AppointmentFormDialog
        opened
        editing={editing}
        defaultDay="2030-06-03"
        appointments={[editing]}
        onClose={vi.fn()}
      />,
      {
        user: hospital,
        routes: {
          'GET /api/patients': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
          'GET /api/hospital/practitioners': { body: practitioners },
          'PUT /api/appointments/a-1': { body: editing },
        },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Appointment' });
    const select = within(dialog).getByLabelText('Practitioner', { selector: 'input' });
    await vi.waitFor(() => expect(select).toHaveValue('Ada Okafor · Cardiology'));
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Ben Okafor · Clinician' }));
    // Choosing someone else frees the slot choice: the old slot may be theirs to refuse.
    await user.click(within(dialog).getByRole('button', { name: '10:00 AM' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update Appointment' }));
    expect(await screen.findByText('The appointment has been updated.')).toBeInTheDocument();
    const [body] = network.to('PUT /api/appointments/a-1').map((c) => c.body as Record<string, unknown>);
    expect(body.practitionerId).toBe('u-ben');
    expect(body).not.toHaveProperty('doctorName');
  });
});
