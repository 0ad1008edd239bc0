// The schedule dialog's time slots in three columns. A slot that the shared conflict rule refuses
// for the chosen doctor and patient is disabled, marked "Booked", and names the conflicting doctors.
import { Button, SimpleGrid, Text, Tooltip } from '@mantine/core';
import {
  conflictLabel,
  findConflicts,
  slotInstant,
  TIME_SLOTS,
  type Appointment,
} from '../../../shared/appointments';

interface Props {
  day: Date | null;
  doctorName: string;
  patientId: string | null;
  excludeId: string | null;
  appointments: readonly Appointment[];
  value: string | null;
  onChange: (slot: string) => void;
  error?: string;
}

export function TimeSlotGrid({
  day,
  doctorName,
  patientId,
  excludeId,
  appointments,
  value,
  onChange,
  error,
}: Props) {
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        Time Slot{' '}
        <Text span c="red">
          *
        </Text>
      </Text>
      {!day ? (
        <Text size="sm" c="dimmed">
          Choose a date to see the available times.
        </Text>
      ) : (
        <SimpleGrid cols={3} spacing="xs" role="group" aria-label="Time slots">
          {TIME_SLOTS.map((slot) => {
            const conflicts = findConflicts(
              { start: slotInstant(day, slot), doctorName, patientId, excludeId },
              appointments,
            );
            const booked = conflicts.length > 0;
            const button = (
              <Button
                size="xs"
                fullWidth
                variant={value === slot ? 'filled' : 'default'}
                disabled={booked}
                aria-pressed={value === slot}
                onClick={() => onChange(slot)}
                data-slot={slot}
              >
                {slot}
                {booked ? ' Booked' : ''}
              </Button>
            );
            return booked ? (
              <Tooltip
                key={slot}
                label={conflictLabel(conflicts)}
                withArrow
                events={{ hover: true, focus: true, touch: true }}
              >
                {/* A disabled button gets no pointer events; the wrapper carries the tooltip. */}
                <div data-testid={`slot-${slot}`}>{button}</div>
              </Tooltip>
            ) : (
              <div key={slot} data-testid={`slot-${slot}`}>
                {button}
              </div>
            );
          })}
        </SimpleGrid>
      )}
      {error && (
        <Text size="xs" c="red" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}
