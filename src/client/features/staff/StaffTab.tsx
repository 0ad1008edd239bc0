// The Staff tab (issue 55, docs/decisions.md#staff-accounts), for hospital admins only (the
// dashboard shows it to them; the server answers 403 to anyone else): the hospital's members, paged
// on the server, with their role, status, last sign-in and two-factor; invite staff; per member,
// change role, deactivate and reactivate (sessions end at once); and the invitations still waiting,
// with Resend and Cancel. The server's refusals (409: the last admin, an address already taken)
// are shown as it words them.
import { Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants';
import { STAFF_ROLE_LABELS, type StaffInvitation, type StaffMember } from '../../../shared/staff';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { ListPager } from '../../components/ListPager';
import { ListTable, useScreenFrom, type Column } from '../../components/ListTable';
import { retryIfFailed } from '../../components/LoadFailed';
import { TableStatus } from '../../components/TableStatus';
import { formatDate, formatDateTime } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import {
  useCancelInvitation,
  useResendInvitation,
  useStaff,
  useStaffInvitations,
  useStaffStatus,
  type StaffStatusFilter,
} from './api';
import { ChangeRoleDialog } from './ChangeRoleDialog';
import { InviteStaffDialog } from './InviteStaffDialog';

const STATUS_OPTIONS: { value: StaffStatusFilter; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'deactivated', label: 'Deactivated' },
  { value: 'all', label: 'All' },
];

const MEMBER_COLUMNS: Column[] = [
  'Name',
  { label: 'Email', visibleFrom: 'sm' },
  'Role',
  { label: 'Status', visibleFrom: 'sm' },
  { label: 'Last sign-in', visibleFrom: 'md' },
  { label: 'Two-factor', visibleFrom: 'md' },
  'Actions',
];

const INVITATION_COLUMNS: Column[] = [
  'Name',
  { label: 'Email', visibleFrom: 'sm' },
  'Role',
  { label: 'Expires', visibleFrom: 'md' },
  'Actions',
];

export function StaffTab() {
  const [inviting, setInviting] = useState(false);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>Staff</Title>
          <Text c="dimmed">
            Everyone who signs in for your hospital, each with their own account and role.
          </Text>
        </div>
        <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={() => setInviting(true)}>
          Invite Staff
        </Button>
      </Group>
      <Members />
      <Invitations />
      <InviteStaffDialog opened={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}

function StatusBadge({ member }: { member: StaffMember }) {
  return member.status === 'active' ? (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  ) : (
    <Badge color="red">Deactivated</Badge>
  );
}

const twoFactorText = (member: StaffMember) => (member.twoFactorEnabled ? 'On' : 'Off');

function Members() {
  const { user: me } = useAuth();
  const [status, setStatus] = useState<StaffStatusFilter>('active');
  const [page, setPage] = useState(1);
  const [changing, setChanging] = useState<StaffMember | null>(null);
  const staff = useStaff({ page, pageSize: DEFAULT_PAGE_SIZE, status });
  const setStaffStatus = useStaffStatus();
  const screenFrom = useScreenFrom();
  const items = staff.data?.items ?? [];

  function confirmStatus(member: StaffMember, action: 'deactivate' | 'reactivate') {
    const deactivating = action === 'deactivate';
    const self = member.id === me?.id;
    modals.openConfirmModal({
      title: deactivating ? 'Deactivate this staff member?' : 'Reactivate this staff member?',
      children: (
        <Text size="sm">
          {deactivating
            ? `${member.name} (${member.email}) will be signed out everywhere at once and cannot sign in until reactivated. ` +
              'What they recorded stays, under their name.' +
              (self ? ' This is your own account: you will be signed out now.' : '')
            : `${member.name} (${member.email}) will be able to sign in again, as ${STAFF_ROLE_LABELS[member.staffRole]}.`}
        </Text>
      ),
      labels: { confirm: deactivating ? 'Deactivate' : 'Reactivate', cancel: 'Cancel' },
      confirmProps: deactivating ? { color: 'red' } : undefined,
      onConfirm: () =>
        setStaffStatus.mutate(
          { id: member.id, action },
          {
            onSuccess: (saved) =>
              notifySuccess(
                deactivating ? 'Staff Member Deactivated' : 'Staff Member Reactivated',
                deactivating
                  ? `${saved.name} has been signed out and can no longer sign in.`
                  : `${saved.name} can sign in again.`,
              ),
            onError: (error) =>
              notifyError('Error', errorMessage(error, 'The staff member could not be changed.')),
          },
        ),
    });
  }

  return (
    <Paper withBorder component="section" aria-labelledby="staff-members-heading">
      <Group justify="space-between" p="md" wrap="wrap">
        <Title order={3} size="h4" id="staff-members-heading">
          Staff Members
        </Title>
        <Select
          label="Show"
          w={170}
          data={STATUS_OPTIONS}
          value={status}
          allowDeselect={false}
          onChange={(value) => {
            if (!value) return;
            setStatus(value);
            setPage(1);
          }}
        />
      </Group>
      <ListTable columns={MEMBER_COLUMNS} aria-label="Staff members">
        {items.map((member) => (
          <Table.Tr key={member.id} data-testid="staff-row">
            <Table.Td>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {member.name}
                {member.id === me?.id && (
                  <Text span inherit c="dimmed" fw={400}>
                    {' '}
                    (you)
                  </Text>
                )}
              </Text>
              {member.department && (
                <Text size="xs" c="dimmed">
                  {member.department}
                </Text>
              )}
              {!screenFrom('sm') && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {member.email} · {member.status === 'active' ? 'Active' : 'Deactivated'}
                </Text>
              )}
              {!screenFrom('md') && (
                <Text size="xs" c="dimmed">
                  Last sign-in {formatDate(member.lastLoginAt, 'never')} · Two-factor {twoFactorText(member)}
                </Text>
              )}
            </Table.Td>
            {screenFrom('sm') && (
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{member.email}</Text>
              </Table.Td>
            )}
            <Table.Td>{STAFF_ROLE_LABELS[member.staffRole]}</Table.Td>
            {screenFrom('sm') && (
              <Table.Td>
                <StatusBadge member={member} />
              </Table.Td>
            )}
            {screenFrom('md') && (
              <>
                <Table.Td>{formatDateTime(member.lastLoginAt, 'Never')}</Table.Td>
                <Table.Td>{twoFactorText(member)}</Table.Td>
              </>
            )}
            <Table.Td>
              <Group gap={4}>
                <Button
                  size="compact-xs"
                  variant="light"
                  disabled={member.status !== 'active'}
                  onClick={() => setChanging(member)}
                  aria-label={`Change role of ${member.name}`}
                >
                  Change role
                </Button>
                {member.status === 'active' ? (
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="red"
                    disabled={setStaffStatus.isPending}
                    onClick={() => confirmStatus(member, 'deactivate')}
                    aria-label={`Deactivate ${member.name}`}
                  >
                    Deactivate
                  </Button>
                ) : (
                  <Button
                    size="compact-xs"
                    variant="light"
                    disabled={setStaffStatus.isPending}
                    onClick={() => confirmStatus(member, 'reactivate')}
                    aria-label={`Reactivate ${member.name}`}
                  >
                    Reactivate
                  </Button>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <TableStatus
        loading={staff.isLoading}
        rows={items.length}
        what="staff"
        empty={status === 'deactivated' ? 'No deactivated staff members.' : 'No staff members to show.'}
        retryLoad={retryIfFailed(staff)}
      />
      <ListPager
        page={page}
        list={staff.data}
        one="staff member"
        other="staff members"
        onPage={setPage}
        p="md"
      />
      <ChangeRoleDialog member={changing} onClose={() => setChanging(null)} />
    </Paper>
  );
}

function Invitations() {
  const [page, setPage] = useState(1);
  const invitations = useStaffInvitations({ page, pageSize: DEFAULT_PAGE_SIZE });
  const resend = useResendInvitation();
  const cancel = useCancelInvitation();
  const screenFrom = useScreenFrom();
  const items = invitations.data?.items ?? [];
  const busy = resend.isPending || cancel.isPending;

  const nameOf = (i: StaffInvitation) => `${i.firstName} ${i.lastName}`;

  function doResend(invitation: StaffInvitation) {
    resend.mutate(invitation.id, {
      onSuccess: (sent) =>
        notifySuccess(
          'Invitation Sent Again',
          `${sent.email} was e-mailed a new link; the earlier link no longer works.`,
        ),
      onError: (error) =>
        notifyError('Error', errorMessage(error, 'The invitation could not be sent again.')),
    });
  }

  function confirmCancel(invitation: StaffInvitation) {
    modals.openConfirmModal({
      title: 'Cancel this invitation?',
      children: (
        <Text size="sm">
          The link sent to {invitation.email} will stop working. You can invite them again later.
        </Text>
      ),
      labels: { confirm: 'Cancel Invitation', cancel: 'Keep It' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        cancel.mutate(invitation.id, {
          onSuccess: (answer) => notifySuccess('Invitation Cancelled', answer.message),
          onError: (error) =>
            notifyError('Error', errorMessage(error, 'The invitation could not be cancelled.')),
        }),
    });
  }

  return (
    <Paper withBorder component="section" aria-labelledby="staff-invitations-heading">
      <Title order={3} size="h4" p="md" id="staff-invitations-heading">
        Invitations Waiting
      </Title>
      <ListTable columns={INVITATION_COLUMNS} aria-label="Invitations waiting">
        {items.map((invitation) => (
          <Table.Tr key={invitation.id} data-testid="invitation-row">
            <Table.Td>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {nameOf(invitation)}
              </Text>
              {!screenFrom('sm') && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {invitation.email}
                </Text>
              )}
              {invitation.status === 'expired' ? (
                <Badge color="gray" variant="light" mt={4}>
                  Expired
                </Badge>
              ) : (
                !screenFrom('md') && (
                  <Text size="xs" c="dimmed">
                    Expires {formatDateTime(invitation.expiresAt)}
                  </Text>
                )
              )}
            </Table.Td>
            {screenFrom('sm') && (
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{invitation.email}</Text>
              </Table.Td>
            )}
            <Table.Td>{STAFF_ROLE_LABELS[invitation.staffRole]}</Table.Td>
            {screenFrom('md') && (
              <Table.Td>
                {invitation.status === 'expired' ? 'Expired' : formatDateTime(invitation.expiresAt)}
              </Table.Td>
            )}
            <Table.Td>
              <Group gap={4}>
                <Button
                  size="compact-xs"
                  variant="light"
                  disabled={busy}
                  onClick={() => doResend(invitation)}
                  aria-label={`Resend the invitation to ${invitation.email}`}
                >
                  Resend
                </Button>
                <Button
                  size="compact-xs"
                  variant="light"
                  color="red"
                  disabled={busy}
                  onClick={() => confirmCancel(invitation)}
                  aria-label={`Cancel the invitation to ${invitation.email}`}
                >
                  Cancel
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <TableStatus
        loading={invitations.isLoading}
        rows={items.length}
        what="invitations"
        empty="No invitations waiting."
        retryLoad={retryIfFailed(invitations)}
      />
      <ListPager
        page={page}
        list={invitations.data}
        one="invitation"
        other="invitations"
        onPage={setPage}
        p="md"
        hideEmpty
      />
    </Paper>
  );
}
