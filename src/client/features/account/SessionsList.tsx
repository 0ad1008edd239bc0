// Profile page, "Sessions" (issue 9): where the account is signed in (device, address, since,
// last active), this browser marked, and Sign out for each other session.
import { Badge, Button, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useEndSession, useSessions } from './api';

const when = (iso: string) => new Date(iso).toLocaleString();

export function SessionsList() {
  const sessions = useSessions();
  const end = useEndSession();

  function signOut(id: string, device: string) {
    end.mutate(id, {
      onSuccess: () => notifySuccess('Session Signed Out', `${device} is signed out.`),
      onError: (e) => notifyError('Error', errorMessage(e, 'The session could not be signed out.')),
    });
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" id="sessions" aria-labelledby="sessions-title">
      <Title order={2} fz="lg" mb="xs" id="sessions-title">
        Sessions
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Where your account is signed in. Sign out any session you do not recognise, then change your password.
      </Text>
      {sessions.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : sessions.error ? (
        <Text c="red">Could not load your sessions.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Signed in</Table.Th>
                <Table.Th>Last active</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(sessions.data ?? []).map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    {s.device}{' '}
                    {s.current && (
                      <Badge size="sm" variant="light">
                        This browser
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{s.ip ?? 'Unknown'}</Table.Td>
                  <Table.Td>{when(s.createdAt)}</Table.Td>
                  <Table.Td>{when(s.lastSeenAt)}</Table.Td>
                  <Table.Td>
                    {!s.current && (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        aria-label={`Sign out ${s.device} (${s.ip ?? 'unknown address'})`}
                        loading={end.isPending && end.variables === s.id}
                        onClick={() => signOut(s.id, s.device)}
                      >
                        Sign out
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
