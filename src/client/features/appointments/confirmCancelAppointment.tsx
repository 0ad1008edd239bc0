// The cancel confirmation (docs/spec.md#hospital-dashboard): doctor, type, date and time,
// department, and that the cancellation is recorded on chain. Confirming calls DELETE, which keeps
// the row as cancelled.
import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  APPOINTMENT_TYPE_LABELS,
  type Appointment,
  type AppointmentType,
} from '../../../shared/appointments';
import { DEPARTMENT_LABELS } from '../../../shared/constants';
import { formatClock, formatDay } from '../../../shared/time';

export const typeLabel = (type: string) => APPOINTMENT_TYPE_LABELS[type as AppointmentType] ?? type;
export const departmentLabel = (d: string) => DEPARTMENT_LABELS[d as keyof typeof DEPARTMENT_LABELS] ?? d;

export function confirmCancelAppointment(appointment: Appointment, onConfirm: () => void) {
  // The hospital's own clock: whoever cancels is its staff.
  const when = new Date(appointment.appointmentDate);
  modals.openConfirmModal({
    title: 'Cancel Appointment',
    children: (
      <Stack gap={4}>
        <Text size="sm">Are you sure you want to cancel this appointment?</Text>
        <Text size="sm">
          <b>Doctor:</b> {appointment.doctorName}
        </Text>
        <Text size="sm">
          <b>Type:</b> {typeLabel(appointment.appointmentType)}
        </Text>
        <Text size="sm">
          <b>Date &amp; Time:</b> {formatDay(when, appointment.timeZone)} at{' '}
          {formatClock(when, appointment.timeZone)}
        </Text>
        <Text size="sm">
          <b>Department:</b> {departmentLabel(appointment.department)}
        </Text>
        <Text size="sm" c="dimmed" mt="xs">
          The cancellation will be recorded on chain for audit purposes.
        </Text>
      </Stack>
    ),
    labels: { confirm: 'Cancel Appointment', cancel: 'Keep Appointment' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
