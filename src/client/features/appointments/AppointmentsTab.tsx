// The Appointments tab (docs/spec.md#hospital-dashboard): the calendar (month, week or day view,
// the week and the day being the selected day's), the selected day's
// schedule with search and status filter, Quick Stats, and the schedule / edit / cancel dialogs.
// Cancelling is recorded in the ledger by the server.
import { Alert, Button, Grid, Group, SegmentedControl, Select, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Appointment } from '../../../shared/appointments';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { organizationIdOf } from '../staff/permissions';
import { usePractitioners } from '../staff/api';
import { notifyError, notifySuccess } from '../../notify';
import { useCancelAppointment, useHospitalAppointments, useSetAppointmentStatus } from './api';
import { AppointmentFormDialog } from './AppointmentFormDialog';
import { dayKeyIn } from '../../../shared/time';
import { useDisplayZone } from '../../time';
import {
  byDay,
  calendarRange,
  fromDayKey,
  loadedMonth,
  quickStats,
  scheduleFor,
  shiftDayKey,
  type CalendarView,
  type StatusFilter,
} from './calendar';
import { DaySchedule } from './DaySchedule';
import { confirmCancelAppointment } from './confirmCancelAppointment';
import { MonthCalendar } from './MonthCalendar';
import { QuickStats } from './QuickStats';
import { SchedulePanel } from './SchedulePanel';
import { WeekCalendar } from './WeekCalendar';

export function AppointmentsTab() {
  const { user } = useAuth();
  // Days and times are the hospital's, wherever this browser is.
  const zone = useDisplayZone();
  const today = dayKeyIn(new Date(), zone);
  const [selected, setSelected] = useState(today);
  const [month, setMonth] = useState(() => fromDayKey(today));
  const [view, setView] = useState<CalendarView>('month');
  // The week and day views load the selected day's month grid, which holds its whole week.
  const range = useMemo(
    () => calendarRange(loadedMonth(view, month, selected), today, zone),
    [view, month, selected, today, zone],
  );
  const [practitionerId, setPractitionerId] = useState<string | null>(null);
  const { items: all, total } = useHospitalAppointments(organizationIdOf(user), range);
  // One practitioner's calendar is filtered here: the booking dialog still checks every booking.
  const appointments = useMemo(
    () => (practitionerId ? all.filter((a) => a.practitionerId === practitionerId) : all),
    [all, practitionerId],
  );
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [dialog, setDialog] = useState<{ editing: Appointment | null } | null>(null);
  const setStatusCall = useSetAppointmentStatus();
  const cancel = useCancelAppointment();

  const days = useMemo(() => byDay(appointments, zone), [appointments, zone]);
  const schedule = useMemo(
    () => scheduleFor(appointments, selected, search, status, zone),
    [appointments, selected, search, status, zone],
  );
  const stats = useMemo(() => quickStats(appointments, new Date(), zone), [appointments, zone]);

  const select = (key: string) => {
    setSelected(key);
    const d = fromDayKey(key);
    if (d.getMonth() !== month.getMonth() || d.getFullYear() !== month.getFullYear()) setMonth(d);
  };

  const openDay = (key: string) => {
    select(key);
    setView('day');
  };

  const changeStatus = async (a: Appointment, next: string) => {
    try {
      await setStatusCall.mutateAsync({ id: a.id, status: next });
      notifySuccess('Status Updated', `The appointment is now ${next}.`);
    } catch (error) {
      notifyError('Error', errorMessage(error, 'Failed to update appointment status'));
    }
  };

  const confirmCancel = (a: Appointment) =>
    confirmCancelAppointment(a, () => {
      cancel.mutateAsync(a.id).then(
        () => notifySuccess('Appointment Cancelled', 'The cancellation has been recorded on chain.'),
        (error: unknown) => notifyError('Error', errorMessage(error, 'Failed to cancel appointment')),
      );
    });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Appointment Management</Title>
        <Group align="flex-end">
          <PractitionerFilter value={practitionerId} onChange={setPractitionerId} />
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setDialog({ editing: null })}
          >
            New Appointment
          </Button>
        </Group>
      </Group>
      {total > all.length && (
        <Alert color="yellow" title="Not every appointment is shown" role="status">
          The calendar's weeks have {total} appointments; it shows the first {all.length}.
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="xs">
            <SegmentedControl
              aria-label="Calendar view"
              data={[
                { value: 'month', label: 'Month' },
                { value: 'week', label: 'Week' },
                { value: 'day', label: 'Day' },
              ]}
              value={view}
              onChange={setView}
              style={{ alignSelf: 'flex-start' }}
            />
            {view === 'month' ? (
              <MonthCalendar
                month={month}
                selected={selected}
                today={today}
                days={days}
                onMonth={setMonth}
                onSelect={select}
                onToday={() => select(today)}
              />
            ) : view === 'week' ? (
              <WeekCalendar
                selected={selected}
                today={today}
                days={days}
                onSelect={select}
                onOpenDay={openDay}
                onPrevious={() => select(shiftDayKey(selected, -7))}
                onNext={() => select(shiftDayKey(selected, 7))}
                onToday={() => select(today)}
              />
            ) : (
              <DaySchedule
                day={selected}
                list={days.get(selected) ?? []}
                onPrevious={() => select(shiftDayKey(selected, -1))}
                onNext={() => select(shiftDayKey(selected, 1))}
                onToday={() => select(today)}
              />
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack>
            <SchedulePanel
              day={selected}
              isToday={selected === today}
              list={schedule}
              search={search}
              status={status}
              onSearch={setSearch}
              onStatusFilter={setStatus}
              onEdit={(a) => setDialog({ editing: a })}
              onCancel={confirmCancel}
              onStatus={(a, s) => void changeStatus(a, s)}
            />
            <QuickStats stats={stats} />
          </Stack>
        </Grid.Col>
      </Grid>
      <AppointmentFormDialog
        opened={dialog !== null}
        editing={dialog?.editing ?? null}
        defaultDay={selected >= today ? selected : today}
        appointments={all}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}

/** Everyone's calendar, or one practitioner's (their bookings by id; free-text ones are everyone's). */
function PractitionerFilter(props: { value: string | null; onChange: (id: string | null) => void }) {
  const practitioners = usePractitioners();
  return (
    <Select
      label="Calendar of"
      w={240}
      data={[
        { value: '', label: 'All practitioners' },
        ...(practitioners.data ?? []).map((p) => ({ value: p.id, label: p.name })),
      ]}
      value={props.value ?? ''}
      onChange={(id) => props.onChange(id || null)}
      allowDeselect={false}
      searchable
    />
  );
}
