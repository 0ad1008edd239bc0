// The schedule dialog's time slots in three columns, in the hospital's time zone (named when the
// browser is elsewhere). A slot that has begun is disabled and marked "Past"; a slot that the
// shared conflict rule refuses for the chosen doctor and patient is disabled, marked "Booked", and
// names the conflicting doctors. Slots read "2:30 PM" like the cards (formatClock); the value
// chosen and sent stays the 24-hour wall-clock "14:30".
import { Button, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import {
  conflictLabel,
  findConflicts,
  slotInstant,
  TIME_SLOTS,
  type Appointment,
} from '../../../shared/appointments';
import { formatClock } from '../../../shared/time';

interface Props {
  /** "YYYY-MM-DD", or null before a date is chosen. */
  day: string | null;
  zone: string;
  /** Say which zone the slots are in (the browser's differs from it). */
  zoneNamed: boolean;
  doctorName: string;
  /** The practitioner chosen: then the conflict is theirs by id (docs/decisions.md#staff-accounts). */
  practitionerId?: string | null;
  patientId: string | null;
  excludeId: string | null;
  appointments: readonly Appointment[];
  value: string | null;
  onChange: (slot: string) => void;
  error?: ReactNode;
}

export function TimeSlotGrid({
  day,
  zone,
  zoneNamed,
  doctorName,
  practitionerId = null,
  patientId,
  excludeId,
  appointments,
  value,
  onChange,
  error,
}: Props) {
  // When the dialog opened; the server refuses a slot that begins while it stays open.
  const [now] = useState(() => Date.now());
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        Time Slot{' '}
        <Text span c="red">
          *
        </Text>
        {zoneNamed && (
          <Text span size="xs" c="dimmed">
            (times in {zone})
          </Text>
        )}
      </Text>
      {!day ? (
        <Text size="sm" c="dimmed">
          Choose a date to see the available times.
        </Text>
      ) : (
        // Two columns on a phone: "9:00 AM Booked" does not fit a third of its dialog there.
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" role="group" aria-label="Time slots">
          {TIME_SLOTS.map((slot) => {
            const start = slotInstant(day, slot, zone);
            // The slot being edited keeps its time even once it has begun.
            const past = start.getTime() < now && value !== slot;
            const conflicts = findConflicts(
              { start, doctorName, practitionerId, patientId, excludeId },
              appointments,
            );
            const booked = !past && conflicts.length > 0;
            const button = (
              <Button
                size="xs"
                fullWidth
                px={6}
                // "10:00 AM Booked" on a phone: the label may wrap rather than be cut.
                h="auto"
                mih={30}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
                variant={value === slot ? 'filled' : 'default'}
                disabled={booked || past}
                aria-pressed={value === slot}
                onClick={() => onChange(slot)}
                data-slot={slot}
              >
                {formatClock(start, zone)}
                {booked ? ' Booked' : past ? ' Past' : ''}
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
