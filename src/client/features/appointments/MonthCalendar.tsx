// The month calendar: previous / Today / next, Sunday-first weekday headers, today highlighted,
// the selected day outlined, and up to three markers (time and patient) per day; cancelled hidden.
// A marker's text wraps rather than being cut ("10:00 AM Ma…" said nothing); below Mantine's xs
// breakpoint (576 px), where a day is some 45 px wide, a day shows its count instead ("2"), the
// cell's label naming "2 appointments".
import { Badge, Box, Paper, Text, UnstyledButton } from '@mantine/core';
import type { Appointment } from '../../../shared/appointments';
import { formatMonth } from '../../../shared/time';
import { useDisplayZone } from '../../time';
import { dayKey, monthGrid, timeOf, WEEKDAYS } from './calendar';
import { plural } from '../../format';
import { CalendarHeader } from './CalendarHeader';

const MAX_MARKERS = 3;

interface Props {
  month: Date;
  selected: string;
  today: string;
  days: Map<string, Appointment[]>;
  onMonth: (month: Date) => void;
  onSelect: (day: string) => void;
  onToday: () => void;
}

export function MonthCalendar({ month, selected, today, days, onMonth, onSelect, onToday }: Props) {
  const zone = useDisplayZone();
  const weeks = monthGrid(month);
  const title = formatMonth(month);
  return (
    <Paper withBorder p="md" radius="md">
      <CalendarHeader
        title={title}
        unit="month"
        onPrevious={() => onMonth(new Date(month.getFullYear(), month.getMonth() - 1, 1))}
        onNext={() => onMonth(new Date(month.getFullYear(), month.getMonth() + 1, 1))}
        onToday={onToday}
      />
      <Box style={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: 4 }} role="grid">
        {/* Rows are `display: contents`, so the seven columns stay one CSS grid while assistive
            technology reads a proper grid of rows and cells. */}
        <div role="row" style={{ display: 'contents' }}>
          {WEEKDAYS.map((d) => (
            <Text key={d} size="xs" fw={600} ta="center" c="dimmed" role="columnheader">
              <abbr title={d} style={{ textDecoration: 'none' }}>
                {d.slice(0, 3)}
              </abbr>
            </Text>
          ))}
        </div>
        {weeks.map((week) => (
          <div key={dayKey(week[0])} role="row" style={{ display: 'contents' }}>
            {week.map((day) => {
              const key = dayKey(day);
              const list = days.get(key) ?? [];
              const inMonth = day.getMonth() === month.getMonth();
              const isToday = key === today;
              const isSelected = key === selected;
              return (
                <UnstyledButton
                  key={key}
                  role="gridcell"
                  aria-selected={isSelected}
                  aria-label={`${day.toDateString()}${list.length ? `, ${plural(list.length, 'appointment', 'appointments')}` : ''}`}
                  data-day={key}
                  onClick={() => onSelect(key)}
                  style={{
                    minHeight: 72,
                    padding: 4,
                    borderRadius: 6,
                    border: `2px solid ${isSelected ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-2)'}`,
                    // Days of the next or previous month are set apart by a grey ground and a
                    // dimmed number, not by fading the cell: faded, their appointments' text fell
                    // below WCAG AA contrast (axe, e2e/accessibility).
                    background: isToday
                      ? 'var(--mantine-color-blue-0)'
                      : inMonth
                        ? undefined
                        : 'var(--mantine-color-gray-0)',
                    overflow: 'hidden',
                    // The markers' text starts at the cell's left edge and wraps inside it.
                    textAlign: 'left',
                    display: 'flex',
                    flexDirection: 'column',
                    justifyContent: 'flex-start',
                  }}
                >
                  <Text
                    size="xs"
                    fw={isToday ? 700 : 400}
                    c={isToday ? 'blue' : inMonth ? undefined : 'dimmed'}
                  >
                    {day.getDate()}
                  </Text>
                  {list.length > 0 && (
                    <Badge hiddenFrom="xs" size="xs" circle mt={2} data-testid="calendar-count" aria-hidden>
                      {list.length}
                    </Badge>
                  )}
                  <Box visibleFrom="xs">
                    {list.slice(0, MAX_MARKERS).map((a) => (
                      <Text
                        key={a.id}
                        size="10px"
                        lh={1.25}
                        data-testid="calendar-marker"
                        style={{
                          background: 'var(--mantine-color-blue-1)',
                          borderRadius: 3,
                          padding: '1px 3px',
                          marginTop: 2,
                          overflowWrap: 'anywhere',
                        }}
                      >
                        <Text span inherit fw={600}>
                          {timeOf(a, zone)}
                        </Text>{' '}
                        {a.patientName}
                      </Text>
                    ))}
                    {list.length > MAX_MARKERS && (
                      <Text size="10px" c="dimmed">
                        +{list.length - MAX_MARKERS} more
                      </Text>
                    )}
                  </Box>
                </UnstyledButton>
              );
            })}
          </div>
        ))}
      </Box>
    </Paper>
  );
}
