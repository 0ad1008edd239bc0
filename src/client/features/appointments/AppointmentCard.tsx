// One appointment in the schedule panel: time, status badge, doctor, type, department, optional
// location and notes, edit and cancel buttons, and the status dropdown (scheduled, confirmed, and
// from the visit's time on checked in, completed, no-show).
import { Badge, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { IconClock, IconEdit, IconMapPin, IconTrash } from '@tabler/icons-react';
import {
  APPOINTMENT_STATUS_LABELS,
  SETTABLE_STATUSES,
  statusAllowedAt,
  type Appointment,
} from '../../../shared/appointments';
import { useDisplayZone } from '../../time';
import { timeOf } from './calendar';
import { AddToCalendarButton } from '../calendar/AddToCalendarButton';
import { departmentLabel, typeLabel } from './confirmCancelAppointment';
import { IconAction } from '../../components/IconAction';

export const STATUS_COLORS: Record<Appointment['status'], string> = {
  scheduled: 'blue',
  confirmed: 'teal',
  checked_in: 'violet',
  completed: 'gray',
  no_show: 'orange',
  pending: 'yellow',
  cancelled: 'red',
};

interface Props {
  appointment: Appointment;
  onEdit: () => void;
  onCancel: () => void;
  onStatus: (status: string) => void;
}

export function AppointmentCard({ appointment: a, onEdit, onCancel, onStatus }: Props) {
  const zone = useDisplayZone();
  const cancelled = a.status === 'cancelled';
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      data-testid="appointment-card"
      aria-label={`Appointment with ${a.doctorName}`}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6}>
            <IconClock size={16} aria-hidden />
            <Text fw={600}>{timeOf(a, zone)}</Text>
            <Badge color={STATUS_COLORS[a.status]} variant="light">
              {APPOINTMENT_STATUS_LABELS[a.status]}
            </Badge>
          </Group>
          <Group gap={4}>
            <IconAction
              icon={IconEdit}
              label="Edit appointment"
              tip="Edit appointment"
              disabled={cancelled}
              onClick={onEdit}
            />
            <IconAction
              icon={IconTrash}
              label="Cancel appointment"
              tip="Cancel appointment"
              color="red"
              disabled={cancelled}
              onClick={onCancel}
            />
          </Group>
        </Group>
        <Text fw={500}>{a.doctorName}</Text>
        <Text size="sm" c="dimmed">
          {typeLabel(a.appointmentType)} · {departmentLabel(a.department)} · {a.patientName}
        </Text>
        {a.location && (
          <Group gap={4}>
            <IconMapPin size={14} aria-hidden />
            <Text size="sm">{a.location}</Text>
          </Group>
        )}
        {!cancelled && (
          <Group>
            <AddToCalendarButton appointmentId={a.id} />
          </Group>
        )}
        {a.notes && (
          <Text size="sm" fs="italic">
            {a.notes}
          </Text>
        )}
        {!cancelled && (
          <Select
            size="xs"
            aria-label="Appointment status"
            data={SETTABLE_STATUSES.map((s) => ({
              value: s,
              label: APPOINTMENT_STATUS_LABELS[s],
              // The server refuses these before the visit's time too (statusAllowedAt).
              disabled: !statusAllowedAt(s, new Date(a.appointmentDate), new Date()),
            }))}
            value={(SETTABLE_STATUSES as readonly string[]).includes(a.status) ? a.status : null}
            placeholder={APPOINTMENT_STATUS_LABELS[a.status]}
            allowDeselect={false}
            onChange={(v) => v && v !== a.status && onStatus(v)}
          />
        )}
      </Stack>
    </Paper>
  );
}
