// The side panel: "Today's Schedule" or the selected date's, a search box (patient, MRN, doctor,
// type, department or notes) and a status filter, then the day's appointment cards.
import { Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { Appointment } from '../../../shared/appointments';
import { APPOINTMENT_STATUSES } from '../../../shared/constants';
import { AppointmentCard } from './AppointmentCard';
import { fromDayKey, type StatusFilter } from './calendar';
import { formatLongDay } from '../../../shared/time';

interface Props {
  day: string;
  isToday: boolean;
  list: Appointment[];
  search: string;
  status: StatusFilter;
  onSearch: (search: string) => void;
  onStatusFilter: (status: StatusFilter) => void;
  onEdit: (a: Appointment) => void;
  onCancel: (a: Appointment) => void;
  onStatus: (a: Appointment, status: string) => void;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function SchedulePanel(props: Props) {
  const title = props.isToday ? "Today's Schedule" : `Schedule for ${formatLongDay(fromDayKey(props.day))}`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="schedule-title">
      <Title order={3} size="h4" id="schedule-title" mb="sm">
        {title}
      </Title>
      <Stack gap="xs" mb="sm">
        <TextInput
          aria-label="Search appointments"
          // Short enough to show whole in the panel at 390 px and in the desktop side column.
          placeholder="Patient, MRN, doctor, type, notes"
          leftSection={<IconSearch size={14} aria-hidden />}
          value={props.search}
          onChange={(e) => props.onSearch(e.currentTarget.value)}
        />
        <Select
          aria-label="Filter by status"
          data={[
            { value: 'all', label: 'All statuses' },
            ...APPOINTMENT_STATUSES.map((s) => ({ value: s, label: capitalise(s) })),
          ]}
          value={props.status}
          allowDeselect={false}
          onChange={(v) => props.onStatusFilter(v ?? 'all')}
        />
      </Stack>
      <Stack gap="sm">
        {props.list.length === 0 ? (
          <Text c="dimmed" size="sm">
            No appointments for this day.
          </Text>
        ) : (
          props.list.map((a) => (
            <AppointmentCard
              key={a.id}
              appointment={a}
              onEdit={() => props.onEdit(a)}
              onCancel={() => props.onCancel(a)}
              onStatus={(s) => props.onStatus(a, s)}
            />
          ))
        )}
      </Stack>
    </Paper>
  );
}
