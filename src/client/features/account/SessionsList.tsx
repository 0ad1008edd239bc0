// Profile page, "Sessions" (issue 9): where the account is signed in (device, address, since,
// last active), this browser marked, and Sign out for each other session. A list rather than a
// table, so that it fits a phone without scrolling sideways.
import { Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../api/request';
import { formatDateTime } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { useEndSession, useSessions } from './api';
import { Panel } from '../../components/Panel';
import { LoadFailed } from '../../components/LoadFailed';

const when = (iso: string) => formatDateTime(iso);

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
    <Panel title="Sessions" mb="xs" id="sessions">
      <Text size="sm" c="dimmed" mb="sm">
        Where your account is signed in. Sign out any session you do not recognise, then change your password.
      </Text>
      {sessions.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : sessions.error ? (
        <LoadFailed what="Your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <Box
          component="ul"
          p={0}
          m={0}
          aria-label="Signed-in sessions"
          style={{
            listStyle: 'none',
            display: 'flex',
            flexDirection: 'column',
            gap: 'var(--mantine-spacing-sm)',
          }}
        >
          {(sessions.data ?? []).map((s) => (
            <Paper component="li" key={s.id} withBorder p="sm" radius="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={500}>{s.device}</Text>
                    {s.current && (
                      <Badge size="sm" variant="light">
                        This browser
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {s.ip ?? 'Unknown address'} · signed in {when(s.createdAt)} · last active{' '}
                    {when(s.lastSeenAt)}
                  </Text>
                </Stack>
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
              </Group>
            </Paper>
          ))}
        </Box>
      )}
    </Panel>
  );
}
