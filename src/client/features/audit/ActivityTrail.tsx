// Activity trail (docs/spec.md#patient-dashboard; docs/decisions.md#filters-and-paging: the filters
// work): action filter and a date (empty until chosen), each entry with its description, badge,
// time, who acted, hash, IP and a copy button. Routine reads (a records list opened, written on
// every dashboard load) are hidden behind "Show routine access", with a line saying how many.
import { Code, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { PATIENT_AUDIT_ACTIONS } from '../../../shared/constants';
import { AUDIT_ACTION_LABELS, actionName, type AuditEntry } from '../../../shared/hospital';
import { copyHash } from '../../notify';
import { formatDateTime, localDayBounds, plural, truncateHash } from '../../format';
import { useActivity } from './api';
import { activityDescription } from './activity';
import { ListPager } from '../../components/ListPager';
import { LoadFailed } from '../../components/LoadFailed';
import { IconAction } from '../../components/IconAction';
import { DayFilter } from './DayFilter';
import { EntryHeading } from './AuditEntryRow';
import { FilterSelect } from '../../components/FilterBar';

const ACTION_OPTIONS = [
  { value: 'all', label: 'All Activities' },
  ...PATIENT_AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] })),
];

function ActivityRow({ entry }: { entry: AuditEntry }) {
  const name = actionName(entry.action);
  return (
    <Paper withBorder p="sm" radius="sm" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="nowrap" align="start">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <EntryHeading name={name} verified={entry.blockchainVerified} />
          <Text size="sm">{activityDescription(entry)}</Text>
          <Text size="xs" c="dimmed">
            {/* The server gives the patient their own addresses only; for staff it names who acted. */}
            {formatDateTime(entry.createdAt)}
            {entry.userName ? ` · by ${entry.userName}` : ''}
            {entry.ipAddress ? ` · ${entry.ipAddress}` : ''}
          </Text>
          {entry.blockchainHash && <Code w="fit-content">{truncateHash(entry.blockchainHash)}</Code>}
        </Stack>
        <IconAction
          icon={IconCopy}
          label="Copy blockchain hash"
          tip={entry.blockchainHash ? 'Copy blockchain hash' : 'No blockchain hash'}
          disabled={!entry.blockchainHash}
          onClick={() => entry.blockchainHash && void copyHash(entry.blockchainHash)}
        />
      </Group>
    </Paper>
  );
}

export function ActivityTrail() {
  const [action, setAction] = useState('all');
  const [day, setDay] = useState<string | null>(null); // no date filter until one is chosen
  const [page, setPage] = useState(1);
  const [showRoutine, setShowRoutine] = useState(false);
  const bounds = day ? localDayBounds(day) : null;
  const { data, isLoading, isError, refetch } = useActivity({
    action,
    from: bounds?.from,
    to: bounds?.to,
    page,
    routine: showRoutine ? 'show' : 'hide',
  });
  const routineHidden = data?.routineHidden ?? 0;
  const items = data?.items ?? [];

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="activity-title">
      <Title order={2} size="h4" id="activity-title" mb="sm">
        Activity Trail
      </Title>
      <Group align="end" mb="sm">
        <FilterSelect
          label="Activity type"
          w={220}
          data={ACTION_OPTIONS}
          value={action}
          onChange={(value) => {
            setAction(value);
            setPage(1);
          }}
        />
        <DayFilter
          value={day}
          onChange={(v) => {
            setDay(v);
            setPage(1);
          }}
        />
        <Switch
          label="Show routine access"
          description="Each time your records list was opened"
          checked={showRoutine}
          onChange={(e) => {
            setShowRoutine(e.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      {!showRoutine && routineHidden > 0 && (
        <Text size="sm" c="dimmed" mb="xs" data-testid="routine-hidden">
          Your records list was opened {plural(routineHidden, 'time', 'times')}
          {day ? ' that day' : ''}; turn on “Show routine access” to list each one.
        </Text>
      )}
      {isLoading && <Text c="dimmed">Loading activity...</Text>}
      {isError && <LoadFailed what="Your activity trail" onRetry={() => void refetch()} />}
      {!isLoading && !isError && items.length === 0 && (
        <Stack gap={2} py="md" align="center">
          <Text fw={500}>No Activity Yet</Text>
          <Text size="sm" c="dimmed">
            {day || action !== 'all'
              ? 'Nothing matches these filters. Clear the date to see all activity.'
              : 'Activity on your records will appear here.'}
          </Text>
        </Stack>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} aria-label="Activities">
        {items.map((entry) => (
          <ActivityRow key={entry.id} entry={entry} />
        ))}
      </Stack>
      <ListPager page={page} list={data} one="activity" other="activities" onPage={setPage} />
    </Paper>
  );
}
