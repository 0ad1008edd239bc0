// Quick Stats: Today and This Week (Sunday to Saturday) without cancelled ones, Scheduled, Pending.
import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { QuickStats as Stats } from './calendar';

export function QuickStats({ stats }: { stats: Stats }) {
  const items = [
    { label: 'Today', value: stats.today },
    { label: 'This Week', value: stats.thisWeek },
    { label: 'Scheduled', value: stats.scheduled },
    { label: 'Pending', value: stats.pending },
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="quick-stats-title">
      <Title order={3} size="h4" id="quick-stats-title" mb="sm">
        Quick Stats
      </Title>
      <SimpleGrid cols={2}>
        {items.map((i) => (
          <div key={i.label} data-testid={`stat-${i.label}`}>
            <Text size="xs" c="dimmed">
              {i.label}
            </Text>
            <Text fw={700} size="xl">
              {i.value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
