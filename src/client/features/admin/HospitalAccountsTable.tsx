// Every hospital account with its trial or subscription state, so the administrator can mark a
// subscription active for hospitals that signed up directly as well as those that applied.
import { Badge, Box, Button, Table, Text } from '@mantine/core';
import type { HospitalSubscription } from '../../../shared/providers';
import { formatDate } from './format';
import { ListTable, useScreenFrom, type Column } from '../../components/ListTable';

interface HospitalAccountsTableProps {
  hospitals: HospitalSubscription[];
  stripeManaged: boolean;
  busy: boolean;
  onMarkActive: (h: HospitalSubscription) => void;
}

// "Trial until Dec 3, 2026" wraps in a narrow cell rather than lose its date to an ellipsis.
const WRAPPING = { root: { height: 'auto' }, label: { whiteSpace: 'normal' } } as const;

function SubscriptionBadge({ h }: { h: HospitalSubscription }) {
  if (h.status === 'active') return <Badge color="teal">Active</Badge>;
  if (h.status === 'trialing' && h.writeAllowed) {
    return (
      <Badge color="blue" variant="light" styles={WRAPPING}>
        Trial until {formatDate(h.trialEndsAt)}
      </Badge>
    );
  }
  if (h.status === 'trialing') return <Badge color="orange">Trial ended</Badge>;
  return <Badge color="gray">{h.status}</Badge>;
}

// On a phone the e-mail and the subscription go under the name and the join date is left out.
const HOSPITAL_COLUMNS: Column[] = [
  'Hospital',
  { label: 'Email', visibleFrom: 'sm' },
  { label: 'Subscription', visibleFrom: 'sm' },
  { label: 'Joined', visibleFrom: 'sm' },
  'Action',
];

export function HospitalAccountsTable({
  hospitals,
  stripeManaged,
  busy,
  onMarkActive,
}: HospitalAccountsTableProps) {
  const screenFrom = useScreenFrom();
  if (hospitals.length === 0) return <Text c="dimmed">No hospital accounts yet.</Text>;
  return (
    <ListTable columns={HOSPITAL_COLUMNS}>
      {hospitals.map((h) => (
        <Table.Tr key={h.hospitalUserId}>
          <Table.Td>
            {h.hospitalName ?? '—'}
            {!screenFrom('sm') && (
              <>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {h.email}
                </Text>
                <Box mt={4}>
                  <SubscriptionBadge h={h} />
                </Box>
              </>
            )}
          </Table.Td>
          {screenFrom('sm') && (
            <>
              <Table.Td>{h.email}</Table.Td>
              <Table.Td>
                <SubscriptionBadge h={h} />
              </Table.Td>
              <Table.Td>{formatDate(h.createdAt)}</Table.Td>
            </>
          )}
          <Table.Td>
            {h.status === 'active' ? (
              <Text size="sm" c="dimmed">
                —
              </Text>
            ) : stripeManaged ? (
              <Text size="sm" c="dimmed">
                Managed through Stripe
              </Text>
            ) : (
              <Button
                size="compact-xs"
                variant="light"
                styles={{ label: { whiteSpace: 'normal' } }}
                h="auto"
                disabled={busy}
                onClick={() => onMarkActive(h)}
                aria-label={`Mark the subscription of ${h.hospitalName ?? h.email} active`}
              >
                Mark subscription active
              </Button>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
