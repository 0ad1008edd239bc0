// Upcoming Appointments (spec section 2). There is no appointments API yet, so the list shows its
// empty state; Book Appointment only tells the patient to contact their provider, as in the spec.
import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { notifyInfo } from '../../notify';

export function UpcomingAppointments() {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="upcoming-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="upcoming-title">
          Upcoming Appointments
        </Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconCalendarPlus size={14} aria-hidden />}
          onClick={() =>
            notifyInfo('Book Appointment', 'Please contact your healthcare provider to book an appointment.')
          }
        >
          Book Appointment
        </Button>
      </Group>
      <Text c="dimmed">
        No upcoming appointments. Book an appointment with your healthcare provider to get started.
      </Text>
    </Paper>
  );
}
