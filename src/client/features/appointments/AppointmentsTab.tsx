// The Appointments tab (docs/spec.md#hospital-dashboard): month calendar, the selected day's
// schedule with search and status filter, Quick Stats, and the schedule / edit / cancel dialogs.
// Cancelling is recorded in the ledger by the server.
import { Alert, Button, Grid, Group, Select, Stack, Title } from '@mantine/core';
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
import { byDay, calendarRange, fromDayKey, quickStats, scheduleFor, type StatusFilter } from './calendar';
import { confirmCancelAppointment } from './confirmCancelAppointment';
import { MonthCalendar } from './MonthCalendar';
import { QuickStats } from './QuickStats';
import { SchedulePanel } from './SchedulePanel';

export function AppointmentsTab() {
  const { user } = useAuth();
  // Days and times are the hospital's, wherever this browser is.
  const zone = useDisplayZone();
  const today = dayKeyIn(new Date(), zone);
  const [selected, setSelected] = useState(today);
  const [month, setMonth] = useState(() => fromDayKey(today));
  const range = useMemo(() => calendarRange(month, today, zone), [month, today, zone]);
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
          This month has {total} appointments; the calendar shows the first {all.length}.
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <MonthCalendar
            month={month}
            selected={selected}
            today={today}
            days={days}
            onMonth={setMonth}
            onSelect={select}
            onToday={() => select(today)}
          />
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
