// Upcoming Appointments (docs/spec.md#patient-dashboard): the patient's own appointments from today on, not
// cancelled (GET /api/appointments/patient). Booking, rescheduling and cancelling are the
// provider's: those buttons only tell the patient to contact their healthcare provider.
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  APPOINTMENT_TYPE_LABELS,
  upcomingAppointments,
  type Appointment,
} from '../../../shared/appointments';
import { DEPARTMENT_LABELS } from '../../../shared/constants';
import { formatRelative } from '../../../shared/time';
import { startOfDay } from './calendar';
import { notifyInfo } from '../../notify';
import { useDisplayZone } from '../../time';
import { AddToCalendarButton } from '../calendar/AddToCalendarButton';
import { useOwnAppointments } from './api';
import { whenForViewer } from './calendar';
import { SmallButton } from '../../components/SmallButton';
import { LoadFailed, retryIfFailed } from '../../components/LoadFailed';

/**
 * The patient's appointments from the start of today, the largest page the server gives; `more`
 * counts those beyond it, so a cut list says so. A failed fetch is logged (docs/spec.md#messages)
 * and, beyond the spec (docs/decisions.md, "Filters and paging"), said in place of the list.
 */
export function useUpcomingAppointments(): { items: Appointment[]; more: number; retryLoad?: () => void } {
  const [from] = useState(() => startOfDay(new Date()).toISOString());
  const query = useOwnAppointments(from);
  if (query.error) console.error('Failed to load appointments', query.error);
  const page = query.data;
  return {
    items: upcomingAppointments(page?.items ?? [], new Date()),
    more: page ? page.total - page.items.length : 0,
    retryLoad: retryIfFailed(query),
  };
}

const contactProvider = (title: string) =>
  notifyInfo(title, 'Please contact your healthcare provider to book, reschedule or cancel an appointment.');

export function UpcomingAppointments({
  appointments,
  more = 0,
  retryLoad,
}: {
  appointments: Appointment[];
  more?: number;
  /** Set when the appointments could not be loaded: asks for them again. */
  retryLoad?: () => void;
}) {
  const zone = useDisplayZone();
  // When the list was drawn: "in 2 days" is read against it.
  const [now] = useState(() => new Date());
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="upcoming-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="upcoming-title">
          Upcoming Appointments
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="default" component={Link} to="/profile/edit#calendar">
            Subscribe
          </Button>
          <SmallButton icon={IconCalendarPlus} onClick={() => contactProvider('Book Appointment')}>
            Book Appointment
          </SmallButton>
        </Group>
      </Group>
      {retryLoad ? (
        <LoadFailed what="Your appointments" onRetry={retryLoad} />
      ) : appointments.length === 0 ? (
        <Text c="dimmed">
          No upcoming appointments. Book an appointment with your healthcare provider to get started.
        </Text>
      ) : (
        <Stack gap="sm">
          {appointments.map((a) => {
            const when = whenForViewer(a, zone);
            return (
              <Paper key={a.id} withBorder p="sm" radius="md" data-testid="upcoming-appointment">
                <Group justify="space-between" align="flex-start">
                  <div>
                    <Group gap="xs">
                      <Text fw={600}>
                        {APPOINTMENT_TYPE_LABELS[a.appointmentType as keyof typeof APPOINTMENT_TYPE_LABELS] ??
                          a.appointmentType}
                      </Text>
                      <Badge size="sm" variant="light">
                        {formatRelative(a.appointmentDate, now)}
                      </Badge>
                    </Group>
                    <Text size="sm">
                      {a.doctorName} ·{' '}
                      {DEPARTMENT_LABELS[a.department as keyof typeof DEPARTMENT_LABELS] ?? a.department}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {when.local}
                      {a.location ? ` · ${a.location}` : ''}
                    </Text>
                    {when.hospital && (
                      <Text size="xs" c="dimmed">
                        {when.hospital}
                      </Text>
                    )}
                  </div>
                  <Group gap="xs">
                    <AddToCalendarButton appointmentId={a.id} />
                    <Button size="xs" variant="default" onClick={() => contactProvider('Reschedule')}>
                      Reschedule
                    </Button>
                    <Button size="xs" variant="default" color="red" onClick={() => contactProvider('Cancel')}>
                      Cancel
                    </Button>
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      {more > 0 && (
        <Text size="sm" c="dimmed" mt="sm" role="status">
          {more} later {more === 1 ? 'appointment is' : 'appointments are'} not shown here.
        </Text>
      )}
    </Paper>
  );
}
