// "New Appointment" and the edit dialog that mirrors it (docs/spec.md#hospital-dashboard and
// #validation): patient, type, doctor, department, date (from today), location, notes and the time
// slot grid. Required fields missing: "Please fill in all required fields". Slots are wall-clock
// times in the hospital's time zone, past ones disabled; the API gets ISO instants.
import { Button, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { DateInput } from '@mantine/dates';
import type { z } from 'zod';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_TYPE_LABELS,
  appointmentFormSchema,
  slotInstant,
  type Appointment,
} from '../../../shared/appointments';
import { APPOINTMENT_TYPES, DEPARTMENT_LABELS, DEPARTMENTS } from '../../../shared/constants';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { PatientPicker } from '../records/PatientPicker';
import { useSaveAppointment } from './api';
import { dayKeyIn, localTimeZone } from '../../../shared/time';
import { useDisplayZone } from '../../time';
import { appointmentDay, slotOf } from './calendar';
import { TimeSlotGrid } from './TimeSlotGrid';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { FormActions } from '../../components/FormActions';
import { useAuth } from '../../auth/context';
import { PractitionerSelect } from '../staff/PractitionerSelect';
import { defaultPractitionerId } from '../staff/permissions';
import { useState } from 'react';

type FormValues = z.input<typeof appointmentFormSchema>;

function initialValues(
  editing: Appointment | null,
  defaultDay: string,
  zone: string,
  practitionerId: string | null,
): FormValues {
  if (!editing) {
    return {
      patientId: null,
      patientLabel: null,
      appointmentType: null,
      doctorName: '',
      practitionerId,
      department: null,
      date: defaultDay,
      slot: null,
      location: '',
      notes: '',
    };
  }
  return {
    patientId: editing.patientId,
    patientLabel: `${editing.patientName} (${editing.patientMrn})`,
    appointmentType: editing.appointmentType,
    // A booking with a practitioner shows them in the select; a free-text one keeps its name.
    doctorName: editing.practitionerId ? '' : editing.doctorName,
    practitionerId: editing.practitionerId,
    department: editing.department,
    date: appointmentDay(editing, zone),
    slot: slotOf(editing, zone),
    location: editing.location ?? '',
    notes: editing.notes ?? '',
  };
}

interface Props {
  opened: boolean;
  /** The appointment being edited, or null for a new one. */
  editing: Appointment | null;
  /** The day preselected for a new appointment (the calendar's selection, if not in the past). */
  defaultDay: string;
  appointments: readonly Appointment[];
  onClose: () => void;
}

export function AppointmentFormDialog(props: Props) {
  return (
    <AppModal
      opened={props.opened}
      onClose={props.onClose}
      title={props.editing ? 'Edit Appointment' : 'Schedule New Appointment'}
      size="lg"
    >
      {/* Keyed so each opening starts from fresh values. */}
      {props.opened && <AppointmentForm key={props.editing?.id ?? 'new'} {...props} />}
    </AppModal>
  );
}

function AppointmentForm({ editing, defaultDay, appointments, onClose }: Props) {
  const zone = useDisplayZone();
  const { user } = useAuth();
  const form = useSchemaForm(
    appointmentFormSchema,
    initialValues(editing, defaultDay, zone, defaultPractitionerId(user)),
  );
  const [practitionerName, setPractitionerName] = useState<string | null>(
    editing?.practitionerId ? editing.doctorName : null,
  );
  const save = useSaveAppointment();
  const today = dayKeyIn(new Date(), zone);
  const values = form.getValues();

  const submit = async ({
    date,
    slot,
    patientLabel: _label,
    doctorName,
    practitionerId,
    ...fields
  }: z.output<typeof appointmentFormSchema>) => {
    // With a practitioner the server names the booking after them; else the typed name is the doctor.
    const payload = {
      ...fields,
      ...(practitionerId ? { practitionerId } : { doctorName, practitionerId: null }),
      location: fields.location ?? null,
      notes: fields.notes ?? null,
      appointmentDate: slotInstant(date, slot, zone).toISOString(),
    };
    try {
      await save.mutateAsync({ id: editing?.id, payload });
      if (editing) notifySuccess('Appointment Updated', 'The appointment has been updated.');
      else
        notifySuccess(
          'Appointment Created',
          `Appointment with ${practitionerId ? practitionerName : doctorName} scheduled for ${date} at ${slot}.`,
        );
      onClose();
    } catch (error) {
      notifyError(
        'Error',
        errorMessage(error, editing ? 'Failed to update appointment' : 'Failed to create appointment'),
      );
    }
  };
  const missing = () => notifyError('Missing Information', APPOINTMENT_MESSAGES.required);

  return (
    <SubmitForm onSubmit={form.onSubmit(submit, missing)}>
      <Stack>
        <PatientPicker
          value={values.patientId}
          selectedLabel={values.patientLabel}
          error={form.errors.patientId}
          onChange={(id, label) => form.setValues({ patientId: id, patientLabel: label })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Appointment Type"
            placeholder="Select type"
            required
            data={APPOINTMENT_TYPES.map((t) => ({ value: t, label: APPOINTMENT_TYPE_LABELS[t] }))}
            {...form.getInputProps('appointmentType')}
          />
          <PractitionerSelect
            value={values.practitionerId ?? null}
            onChange={(p) => {
              setPractitionerName(p?.name ?? null);
              form.setValues({ practitionerId: p?.id ?? null, slot: null });
            }}
          />
          {!values.practitionerId && (
            <TextInput
              label="Doctor Name"
              placeholder="Dr. Jane Smith"
              required
              {...form.getInputProps('doctorName')}
            />
          )}
          <Select
            label="Department"
            placeholder="Select department"
            required
            data={DEPARTMENTS.map((d) => ({ value: d, label: DEPARTMENT_LABELS[d] }))}
            {...form.getInputProps('department')}
          />
          <DateInput
            label="Date"
            placeholder="Pick a date"
            required
            valueFormat="YYYY-MM-DD"
            minDate={today}
            value={values.date}
            error={form.errors.date}
            onChange={(date) => form.setValues({ date, slot: null })}
          />
        </SimpleGrid>
        <TimeSlotGrid
          day={values.date}
          zone={zone}
          zoneNamed={zone !== localTimeZone()}
          doctorName={values.practitionerId ? (practitionerName ?? '') : values.doctorName}
          practitionerId={values.practitionerId ?? null}
          patientId={values.patientId}
          excludeId={editing?.id ?? null}
          appointments={appointments}
          value={values.slot}
          onChange={(slot) => form.setFieldValue('slot', slot)}
          error={form.errors.slot}
        />
        <TextInput
          label="Location"
          placeholder="Room or building (optional)"
          {...form.getInputProps('location')}
        />
        <Textarea
          label="Notes"
          placeholder="Notes (optional)"
          autosize
          minRows={2}
          {...form.getInputProps('notes')}
        />
        <FormActions onCancel={onClose}>
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Update Appointment' : 'Schedule Appointment'}
          </Button>
        </FormActions>
      </Stack>
    </SubmitForm>
  );
}
