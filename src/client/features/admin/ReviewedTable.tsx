// Reviewed applications (docs/spec.md#other-pages): hospital name, contact, status, date; plus the account
// made from an approved application, a new link while it is unused, and "mark active".
import { Badge, Button, Group, Table, Text } from '@mantine/core';
import type { Application } from '../../../shared/providers';
import { STATUS_COLOR, formatDate } from './format';
import { ListTable } from '../../components/ListTable';

interface ReviewedTableProps {
  applications: Application[];
  busy: boolean;
  onResend: (a: Application) => void;
  onMarkActive: (a: Application) => void;
}

function AccountCell({
  a,
  busy,
  onResend,
  onMarkActive,
}: { a: Application } & Omit<ReviewedTableProps, 'applications'>) {
  if (a.status !== 'approved')
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (!a.hospitalUserId) {
    return (
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Not registered yet
        </Text>
        <Button size="compact-xs" variant="light" disabled={busy} onClick={() => onResend(a)}>
          Send new link
        </Button>
      </Group>
    );
  }
  return (
    <Group gap="xs">
      <Badge variant="light" color={a.subscriptionStatus === 'active' ? 'teal' : 'gray'}>
        {a.subscriptionStatus ?? 'inactive'}
      </Badge>
      {a.subscriptionStatus !== 'active' && (
        <Button size="compact-xs" variant="light" disabled={busy} onClick={() => onMarkActive(a)}>
          Mark subscription active
        </Button>
      )}
    </Group>
  );
}

export function ReviewedTable({ applications, ...actions }: ReviewedTableProps) {
  return (
    <ListTable columns={['Hospital Name', 'Contact', 'Status', 'Date', 'Account']} minWidth={640}>
      {applications.map((a) => (
        <Table.Tr key={a.id}>
          <Table.Td>{a.hospitalName}</Table.Td>
          <Table.Td>
            <Text size="sm">{a.contactName}</Text>
            <Text size="xs" c="dimmed">
              {a.contactEmail}
            </Text>
          </Table.Td>
          <Table.Td>
            <Badge color={STATUS_COLOR[a.status]}>{a.status}</Badge>
          </Table.Td>
          <Table.Td>{formatDate(a.reviewedAt ?? a.createdAt)}</Table.Td>
          <Table.Td>
            <AccountCell a={a} {...actions} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
