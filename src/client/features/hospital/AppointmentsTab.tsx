// The Appointments tab's place in the dashboard. Appointment management (calendar, schedule,
// conflicts) is a separate piece of work; until it lands the tab says so instead of pretending.
import { Alert, Stack, Title } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';

export function AppointmentsTab() {
  return (
    <Stack>
      <Title order={2}>Appointment Management</Title>
      <Alert icon={<IconCalendarEvent aria-hidden />} color="gray" title="Not available yet">
        Scheduling appointments is not available in this version of MedLedger yet.
      </Alert>
    </Stack>
  );
}
