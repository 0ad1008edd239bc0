// Audit Trail tab (docs/spec.md#hospital-dashboard): action, user and date filters applied by Search, the
// "Transaction History" list with paging, loading and empty states.
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { HOSPITAL_AUDIT_ACTIONS } from '../../../shared/constants';
import { AUDIT_ACTION_LABELS } from '../../../shared/hospital';
import { useAuditLogs, useAuditUsers } from './api';
import { localDayBounds } from '../../format';
import { AuditEntryRow } from './AuditEntryRow';
import { ListPager } from '../../components/ListPager';
import { LoadFailed } from '../../components/LoadFailed';
import { DayFilter } from './DayFilter';
import { FilterBar, FilterSelect } from '../../components/FilterBar';

const ACTION_OPTIONS = [
  { value: 'all', label: 'All Actions' },
  ...HOSPITAL_AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] ?? a })),
];

interface Filters {
  action: string;
  userId: string;
  day: string | null;
}

export function AuditTrailTab() {
  const [draft, setDraft] = useState<Filters>({ action: 'all', userId: 'all', day: null }); // no date filter until one is chosen
  const [applied, setApplied] = useState<Filters>(draft);
  const [page, setPage] = useState(1);
  const users = useAuditUsers();
  const bounds = applied.day ? localDayBounds(applied.day) : null;
  const { data, isLoading, isError, refetch } = useAuditLogs({
    action: applied.action,
    userId: applied.userId,
    from: bounds?.from,
    to: bounds?.to,
    page,
  });
  const items = data?.items ?? [];

  return (
    <Stack>
      <Title order={2}>Audit Trail</Title>
      <FilterBar
        onApply={() => {
          setApplied(draft);
          setPage(1);
          // Same filters: read the trail again (new entries may have been written since).
          if (page === 1 && JSON.stringify(draft) === JSON.stringify(applied)) void refetch();
        }}
      >
        <FilterSelect
          label="Action"
          w={200}
          data={ACTION_OPTIONS}
          value={draft.action}
          onChange={(action) => setDraft((d) => ({ ...d, action }))}
        />
        <FilterSelect
          label="User"
          w={240}
          searchable
          data={[
            { value: 'all', label: 'All Users' },
            ...(users.data ?? []).map((u) => ({ value: u.id, label: u.name })),
          ]}
          value={draft.userId}
          onChange={(userId) => setDraft((d) => ({ ...d, userId }))}
        />
        <DayFilter value={draft.day} onChange={(day) => setDraft((d) => ({ ...d, day }))} />
        <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />}>
          Search
        </Button>
      </FilterBar>

      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Transaction History
        </Title>
        {isLoading && <Text c="dimmed">Loading audit logs...</Text>}
        {isError && <LoadFailed what="The audit trail" onRetry={() => void refetch()} />}
        {!isLoading && !isError && items.length === 0 && (
          <Text c="dimmed">
            No audit logs available yet
            {applied.day || applied.action !== 'all' || applied.userId !== 'all' ? ' for these filters' : ''}.
          </Text>
        )}
        <Stack component="section" gap="xs" aria-label="Transaction history">
          {items.map((entry) => (
            <AuditEntryRow key={entry.id} entry={entry} />
          ))}
        </Stack>
        <ListPager page={page} list={data} one="transaction" other="transactions" onPage={setPage} />
      </Paper>
    </Stack>
  );
}
