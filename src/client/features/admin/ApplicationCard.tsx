// One pending application (docs/spec.md#other-pages): its details and Approve / Reject.
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Application } from '../../../shared/providers';
import { STATUS_COLOR, formatDate } from './format';
import { SmallButton } from '../../components/SmallButton';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </div>
  );
}

interface ApplicationCardProps {
  application: Application;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}

export function ApplicationCard({ application: a, busy, onApprove, onReject }: ApplicationCardProps) {
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-label={`Application of ${a.hospitalName}`}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={3} fz="lg">
          {a.hospitalName}
        </Title>
        <Badge color={STATUS_COLOR[a.status]}>{a.status}</Badge>
      </Group>
      {a.status === 'pending' && a.hospitalUserId && (
        // An account that signed up on its own asks to be verified: approving verifies it, no link.
        <Text size="sm" mb="sm">
          An existing hospital account asks to be verified. Approving marks it a verified provider; no
          registration link is sent.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        <Detail label="Contact email">
          <Anchor href={`mailto:${a.contactEmail}`} size="sm">
            {a.contactEmail}
          </Anchor>
        </Detail>
        <Detail label="Phone">{a.contactPhone}</Detail>
        <Detail label="Website">
          {a.website && (
            // The server accepts only http(s) addresses, so this link cannot run script.
            <Anchor href={a.website} target="_blank" rel="noopener noreferrer" size="sm">
              {a.website}
            </Anchor>
          )}
        </Detail>
        <Detail label="Contact person">{a.contactName}</Detail>
        <Detail label="NPI">{a.npiNumber}</Detail>
        <Detail label="License">{a.licenseNumber}</Detail>
        <Detail label="Address">{a.address}</Detail>
        <Detail label="Submitted">{formatDate(a.createdAt)}</Detail>
      </SimpleGrid>
      <Stack mt="md">
        <Group justify="flex-end">
          <SmallButton size="sm" icon={IconX} color="red" disabled={busy} onClick={onReject}>
            Reject
          </SmallButton>
          <SmallButton
            size="sm"
            variant="filled"
            icon={IconCheck}
            color="teal"
            disabled={busy}
            onClick={onApprove}
          >
            Approve
          </SmallButton>
        </Group>
      </Stack>
    </Card>
  );
}
