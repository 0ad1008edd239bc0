// The four stat cards of the patient dashboard (docs/spec.md#patient-dashboard).
import { Paper, SimpleGrid, Text, ThemeIcon, Group, VisuallyHidden } from '@mantine/core';
import { IconBell, IconCalendar, IconFileText, IconShieldCheck, type Icon } from '@tabler/icons-react';

interface Stat {
  label: string;
  /** null while the figure is not known (its list is loading or could not be loaded), never 0. */
  value: number | null;
  icon: Icon;
  color: string;
}

export function StatCards(props: {
  records: number | null;
  upcoming: number | null;
  notifications: number | null;
  verified: number | null;
}) {
  const stats: Stat[] = [
    { label: 'Medical Records', value: props.records, icon: IconFileText, color: 'blue' },
    { label: 'Upcoming Appointments', value: props.upcoming, icon: IconCalendar, color: 'grape' },
    { label: 'New Notifications', value: props.notifications, icon: IconBell, color: 'orange' },
    { label: 'Verified Records', value: props.verified, icon: IconShieldCheck, color: 'teal' },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
      {stats.map((s) => (
        <Paper key={s.label} withBorder p="md" radius="md" role="group" aria-label={s.label}>
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text size="sm" c="dimmed">
                {s.label}
              </Text>
              <Text fz={28} fw={700} data-testid={`stat-${s.label}`}>
                {s.value ?? (
                  <>
                    <span aria-hidden>—</span>
                    <VisuallyHidden>not known</VisuallyHidden>
                  </>
                )}
              </Text>
            </div>
            <ThemeIcon variant="light" color={s.color} size="xl" radius="md" aria-hidden>
              <s.icon size={22} />
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
