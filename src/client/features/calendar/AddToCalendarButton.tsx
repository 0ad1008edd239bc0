// "Add to calendar": the appointment's .ics, downloaded with the session cookie.
import { Button } from '@mantine/core';
import { IconCalendarDown } from '@tabler/icons-react';
import { appointmentIcsUrl } from './api';

export function AddToCalendarButton({ appointmentId }: { appointmentId: string }) {
  return (
    <Button
      component="a"
      href={appointmentIcsUrl(appointmentId)}
      download
      size="xs"
      variant="default"
      leftSection={<IconCalendarDown size={14} aria-hidden />}
    >
      Add to calendar
    </Button>
  );
}
