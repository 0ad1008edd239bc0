// The day view: the selected day's appointments in time order (time, patient and MRN, type,
// practitioner, status), previous / Today / next day, and "Print day schedule". Cancelled
// appointments are hidden, as in the month and the week (the side panel's filter shows them).
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { Appointment } from '../../../shared/appointments';
import { formatLongDay } from '../../../shared/time';
import { useAuth } from '../../auth/context';
import { notifyError } from '../../notify';
import { useDisplayZone } from '../../time';
import { STATUS_COLORS } from './AppointmentCard';
import { CalendarHeader } from './CalendarHeader';
import { fromDayKey, timeOf } from './calendar';
import { typeLabel } from './confirmCancelAppointment';
import { printDaySchedule } from './printDaySchedule';

interface Props {
  day: string;
  /** The day's appointments, in time order. */
  list: Appointment[];
  onPrevious: () => void;
  onNext: () => void;
  onToday: () => void;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function DaySchedule({ day, list, onPrevious, onNext, onToday }: Props) {
  const zone = useDisplayZone();
  const { user } = useAuth();
  const print = () => {
    if (!printDaySchedule({ hospitalName: user?.hospitalName ?? null, day, zone, list }))
      notifyError('Print Failed', 'Allow pop-ups for this site to print the day schedule.');
  };
  return (
    <Paper withBorder p="md" radius="md">
      <CalendarHeader
        title={formatLongDay(fromDayKey(day))}
        unit="day"
        onPrevious={onPrevious}
        onNext={onNext}
        onToday={onToday}
      />
      <Button
        variant="default"
        size="xs"
        mb="sm"
        leftSection={<IconPrinter size={14} aria-hidden />}
        onClick={print}
      >
        Print day schedule
      </Button>
      {list.length === 0 ? (
        <Text c="dimmed" size="sm">
          No appointments on this day.
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {list.map((a) => (
            <Paper key={a.id} withBorder p="xs" radius="sm" component="li" data-testid="day-appointment">
              {/* Time and status on the first line, then the patient and the rest across the whole
                  row: beside the time, a phone's column cut the MRN mid-number. */}
              <Group justify="space-between" gap="xs">
                <Text fw={600} size="sm">
                  {timeOf(a, zone)}
                </Text>
                <Badge color={STATUS_COLORS[a.status]} variant="light">
                  {capitalise(a.status)}
                </Badge>
              </Group>
              <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
                {a.patientName}
                {a.patientMrn && (
                  <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {' '}
                    ({a.patientMrn})
                  </Text>
                )}
              </Text>
              <Text size="xs" c="dimmed">
                {typeLabel(a.appointmentType)} · {a.doctorName}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
