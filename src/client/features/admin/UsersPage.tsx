// /medledger/users (issue 9, items 6 and 7): every account of every role, searched by name or
// e-mail, filtered by role and status, paged on the server; suspend, reactivate and verify, each
// behind the same confirmation pattern as Approve / Reject. The route guard lets only
// medledger_admin in; the server checks the role and two-factor sign-in again.
import { Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState, type ReactNode } from 'react';
import { ROLE_LABELS, USER_ROLE_FILTERS, type AdminUser } from '../../../shared/admin-users';
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants';
import { displayName } from '../../../shared/users';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { ListPager } from '../../components/ListPager';
import { TableStatus } from '../../components/TableStatus';
import { AppLayout } from '../../components/layout/AppLayout';
import { formatDate } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { AdminNav } from './AdminNav';
import { TwoFactorFirst } from './TwoFactorFirst';
import { useAccountAction, useAdminUsers } from './api';
import { ListTable, useScreenFrom, type Column } from '../../components/ListTable';
import { FilterBar, FilterSelect, SearchField } from '../../components/FilterBar';
import { retryIfFailed } from '../../components/LoadFailed';

const ROLE_OPTIONS = USER_ROLE_FILTERS.map((r) => ({
  value: r,
  label: r === 'all' ? 'All roles' : ROLE_LABELS[r],
}));
const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'verified', label: 'Verified providers' },
  { value: 'unverified', label: 'Providers not verified' },
];

const nameOf = (u: AdminUser) => (u.role === 'hospital' && u.hospitalName ? u.hospitalName : displayName(u));

type AccountAction = 'suspend' | 'reactivate' | 'verify';
/** What each account action's confirmation says; `danger` makes its button red. */
const CONFIRMATIONS: Record<
  AccountAction,
  { title: string; body: (u: AdminUser) => ReactNode; label: string; danger?: boolean }
> = {
  suspend: {
    title: 'Suspend this account?',
    body: (u) =>
      `${nameOf(u)} (${u.email}) will be signed out everywhere at once and cannot sign in until the account is reactivated. ` +
      'The share links and family access this account gave stop at once too.',
    label: 'Suspend',
    danger: true,
  },
  reactivate: {
    title: 'Reactivate this account?',
    body: (u) => `${nameOf(u)} (${u.email}) will be able to sign in again.`,
    label: 'Reactivate',
  },
  verify: {
    title: 'Verify this provider?',
    body: (u) =>
      `Records issued by ${nameOf(u)} will show "Verified provider" to patients and on the public verification page. ` +
      'Verify only a provider whose identity you have checked.',
    label: 'Verify',
  },
};

/**
 * The reactivation's choice: whether the share links and family access the suspension stopped come
 * back. Unticked by default (they then end for good). Kept in the dialog's own state and handed out
 * through `onChange`, as the confirm dialog is opened imperatively.
 */
function RestoreSharingChoice({ onChange }: { onChange: (restore: boolean) => void }) {
  const [checked, setChecked] = useState(false);
  return (
    <Checkbox
      mt="md"
      label="Also restore the share links and family access this account gave"
      description="Left unticked, they stay ended: the account has to share again and send new invitations."
      checked={checked}
      onChange={(event) => {
        setChecked(event.currentTarget.checked);
        onChange(event.currentTarget.checked);
      }}
    />
  );
}

function StatusBadges({ user }: { user: AdminUser }) {
  return (
    <Group gap={4}>
      {user.status === 'suspended' ? (
        <Badge color="red">Suspended</Badge>
      ) : (
        <Badge color="teal" variant="light">
          Active
        </Badge>
      )}
      {user.verified === true && (
        <Badge color="blue" variant="light">
          Verified
        </Badge>
      )}
      {user.verified === false && (
        <Badge color="gray" variant="light">
          Not verified
        </Badge>
      )}
    </Group>
  );
}

const USER_COLUMNS: Column[] = [
  'User',
  { label: 'Role', visibleFrom: 'sm' },
  'Status',
  { label: 'Joined', visibleFrom: 'md' },
  { label: 'Last sign-in', visibleFrom: 'md' },
  'Actions',
];

export default function UsersPage() {
  return (
    <TwoFactorFirst
      title="Users"
      why="The user directory shows every account, so the administrator pages need two-factor sign-in: a code from an authenticator app at each sign-in."
    >
      <Users />
    </TwoFactorFirst>
  );
}

function Users() {
  const { user: me } = useAuth();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('all');
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const users = useAdminUsers({
    search,
    role,
    status,
    page,
    pageSize: DEFAULT_PAGE_SIZE,
  });
  const { data, isLoading } = users;
  const action = useAccountAction();
  const screenFrom = useScreenFrom();

  const items = data?.items ?? [];

  /** A filter's new value, from the first page. */
  const pick = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };

  function run(u: AdminUser, kind: AccountAction, restoreSharing = false) {
    const titles = {
      suspend: 'Account Suspended',
      reactivate: 'Account Reactivated',
      verify: 'Provider Verified',
    };
    action.mutate(
      { id: u.id, action: kind, body: kind === 'reactivate' ? { restoreSharing } : undefined },
      {
        onSuccess: (answer) => notifySuccess(titles[kind], answer.message),
        onError: (error) => notifyError('Error', errorMessage(error, 'The account could not be changed.')),
      },
    );
  }

  function confirm(u: AdminUser, kind: AccountAction) {
    const { title, body, label, danger } = CONFIRMATIONS[kind];
    let restoreSharing = false;
    modals.openConfirmModal({
      title,
      children: (
        <>
          <Text size="sm">{body(u)}</Text>
          {kind === 'reactivate' && (
            <RestoreSharingChoice onChange={(restore) => (restoreSharing = restore)} />
          )}
        </>
      ),
      labels: { confirm: label, cancel: 'Cancel' },
      confirmProps: danger ? { color: 'red' } : undefined,
      onConfirm: () => run(u, kind, restoreSharing),
    });
  }

  return (
    <AppLayout>
      <Stack gap="lg">
        <AdminNav />
        <div>
          <Title order={1}>Users</Title>
          <Text c="dimmed">Every account of every role: suspend, reactivate, and verify providers.</Text>
        </div>
        <FilterBar
          onApply={() => {
            setSearch(searchInput.trim());
            setPage(1);
          }}
        >
          <SearchField
            label="Search users"
            placeholder="Name, hospital or email"
            value={searchInput}
            onChange={setSearchInput}
          />
          <FilterSelect label="Role" w={170} data={ROLE_OPTIONS} value={role} onChange={pick(setRole)} />
          <FilterSelect
            label="Status"
            w={200}
            data={STATUS_OPTIONS}
            value={status}
            onChange={pick(setStatus)}
          />
          <Button type="submit">Search</Button>
        </FilterBar>
        <Paper withBorder>
          <ListTable columns={USER_COLUMNS} aria-label="Users">
            {items.map((u) => {
              const self = u.id === me?.id;
              return (
                <Table.Tr key={u.id} data-testid="user-row">
                  <Table.Td>
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {nameOf(u)}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {u.email}
                      {!screenFrom('sm') && (
                        <Text span inherit>
                          {' '}
                          · {ROLE_LABELS[u.role]}
                        </Text>
                      )}
                    </Text>
                  </Table.Td>
                  {screenFrom('sm') && <Table.Td>{ROLE_LABELS[u.role]}</Table.Td>}
                  <Table.Td>
                    <StatusBadges user={u} />
                  </Table.Td>
                  {screenFrom('md') && (
                    <>
                      <Table.Td>{formatDate(u.createdAt)}</Table.Td>
                      <Table.Td>{formatDate(u.lastLoginAt, 'Never')}</Table.Td>
                    </>
                  )}
                  <Table.Td>
                    <Group gap={4}>
                      {u.status === 'suspended' ? (
                        <Button
                          size="compact-xs"
                          variant="light"
                          disabled={action.isPending}
                          onClick={() => confirm(u, 'reactivate')}
                          aria-label={`Reactivate ${nameOf(u)}`}
                        >
                          Reactivate
                        </Button>
                      ) : (
                        <Tooltip label="You cannot suspend your own account" disabled={!self}>
                          <Button
                            size="compact-xs"
                            variant="light"
                            color="red"
                            disabled={self || action.isPending}
                            onClick={() => confirm(u, 'suspend')}
                            aria-label={`Suspend ${nameOf(u)}`}
                          >
                            Suspend
                          </Button>
                        </Tooltip>
                      )}
                      {u.verified === false && (
                        <Button
                          size="compact-xs"
                          variant="light"
                          disabled={action.isPending}
                          onClick={() => confirm(u, 'verify')}
                          aria-label={`Verify ${nameOf(u)} as a provider`}
                        >
                          Verify
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
          <TableStatus
            loading={isLoading}
            rows={items.length}
            what="users"
            empty="No users match your search."
            retryLoad={retryIfFailed(users)}
          />
          <ListPager page={page} list={data} one="user" other="users" onPage={setPage} p="md" />
        </Paper>
      </Stack>
    </AppLayout>
  );
}
