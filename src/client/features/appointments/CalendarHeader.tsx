// The heading of the calendar's month, week and day views: the period shown, then previous /
// Today / next, the arrows named for the period ("Previous week").
import { Button, Group, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** "month", "week" or "day": what the arrows move by. */
  unit: string;
  onPrevious: () => void;
  onNext: () => void;
  onToday: () => void;
  /** More buttons after the arrows (the day view's Print). */
  children?: ReactNode;
}

export function CalendarHeader({ title, unit, onPrevious, onNext, onToday, children }: Props) {
  return (
    <Group justify="space-between" mb="sm" gap="xs">
      <Title order={3} size="h4" data-testid="calendar-title">
        {title}
      </Title>
      <Group gap="xs">
        {children}
        <Button variant="default" size="xs" aria-label={`Previous ${unit}`} onClick={onPrevious}>
          <IconChevronLeft size={16} aria-hidden />
        </Button>
        <Button variant="default" size="xs" onClick={onToday}>
          Today
        </Button>
        <Button variant="default" size="xs" aria-label={`Next ${unit}`} onClick={onNext}>
          <IconChevronRight size={16} aria-hidden />
        </Button>
      </Group>
    </Group>
  );
}
