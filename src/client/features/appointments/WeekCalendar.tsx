// The week view: the selected day's week, Sunday to Saturday, a column per day (a row per day on
// a phone, below Mantine's xs breakpoint), each appointment a block with its time and the
// patient's name that wraps rather than being cut; past MAX_BLOCKS a day says "+N more", which
// opens its day view. Cancelled appointments are hidden, as in the month.
import { Box, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Appointment } from '../../../shared/appointments';
import { formatDay } from '../../../shared/time';
import { useDisplayZone } from '../../time';
import { plural } from '../../format';
import { CalendarHeader } from './CalendarHeader';
import { dayKey, fromDayKey, timeOf, weekDays, WEEKDAYS } from './calendar';

const MAX_BLOCKS = 6;

interface Props {
  selected: string;
  today: string;
  days: Map<string, Appointment[]>;
  onSelect: (day: string) => void;
  /** Open a day's own view (its "+N more"). */
  onOpenDay: (day: string) => void;
  onPrevious: () => void;
  onNext: () => void;
  onToday: () => void;
}

/** "Nov 22, 2026 – Nov 28, 2026": the week's first and last day. */
export const weekTitle = (week: Date[]) => `${formatDay(week[0])} – ${formatDay(week[6])}`;

export function WeekCalendar({
  selected,
  today,
  days,
  onSelect,
  onOpenDay,
  onPrevious,
  onNext,
  onToday,
}: Props) {
  const zone = useDisplayZone();
  const week = weekDays(fromDayKey(selected));
  return (
    <Paper withBorder p="md" radius="md">
      <CalendarHeader
        title={weekTitle(week)}
        unit="week"
        onPrevious={onPrevious}
        onNext={onNext}
        onToday={onToday}
      />
      <SimpleGrid cols={{ base: 1, xs: 7 }} spacing={4} verticalSpacing={4}>
        {week.map((day) => {
          const key = dayKey(day);
          const list = days.get(key) ?? [];
          const isToday = key === today;
          const isSelected = key === selected;
          const name = WEEKDAYS[day.getDay()];
          return (
            <Box
              key={key}
              component="section"
              aria-label={`${name}, ${formatDay(day)}`}
              data-testid="week-day"
              data-day={key}
              style={{
                minWidth: 0,
                minHeight: 72,
                padding: 4,
                borderRadius: 6,
                border: `2px solid ${isSelected ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-2)'}`,
                background: isToday ? 'var(--mantine-color-blue-0)' : undefined,
              }}
            >
              <UnstyledButton
                onClick={() => onSelect(key)}
                aria-pressed={isSelected}
                aria-label={`${name}, ${formatDay(day)}${list.length ? `, ${plural(list.length, 'appointment', 'appointments')}` : ''}`}
                w="100%"
              >
                <Text size="xs" fw={isToday ? 700 : 600} c={isToday ? 'blue' : undefined}>
                  {name.slice(0, 3)} {day.getDate()}
                </Text>
              </UnstyledButton>
              <Stack gap={2} mt={2}>
                {list.slice(0, MAX_BLOCKS).map((a) => (
                  <UnstyledButton
                    key={a.id}
                    data-testid="week-appointment"
                    onClick={() => onSelect(key)}
                    style={{
                      background: 'var(--mantine-color-blue-1)',
                      borderRadius: 3,
                      padding: '2px 4px',
                      overflowWrap: 'anywhere',
                    }}
                  >
                    <Text size="xs" fw={600} lh={1.3}>
                      {timeOf(a, zone)}
                    </Text>
                    <Text size="xs" lh={1.3}>
                      {a.patientName}
                    </Text>
                  </UnstyledButton>
                ))}
                {list.length > MAX_BLOCKS && (
                  <UnstyledButton
                    onClick={() => onOpenDay(key)}
                    aria-label={`+${list.length - MAX_BLOCKS} more on ${name}, ${formatDay(day)}`}
                  >
                    <Text size="xs" c="blue">
                      +{list.length - MAX_BLOCKS} more
                    </Text>
                  </UnstyledButton>
                )}
              </Stack>
            </Box>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}
