// Profile page: the private calendar subscription. The secret URL is shown once, right after it is
// made; afterwards the page only knows that a subscription exists and can renew or revoke it.
import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDate } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { useCalendarFeed, useRenewFeed, useRevokeFeed } from './api';

export function CalendarSubscription() {
  const feed = useCalendarFeed();
  const renew = useRenewFeed();
  const revoke = useRevokeFeed();
  const [url, setUrl] = useState<string | null>(null);
  const active = feed.data?.active ?? false;

  const onRenew = () =>
    renew.mutate(undefined, {
      onSuccess: (created) => setUrl(created.url),
      onError: (e) => notifyError('Calendar subscription', e.message),
    });
  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setUrl(null);
        notifySuccess('Calendar subscription', 'The subscription URL no longer works.');
      },
      onError: (e) => notifyError('Calendar subscription', e.message),
    });

  return (
    <Paper withBorder p="lg" radius="md" id="calendar" component="section" aria-labelledby="calendar-title">
      <Title order={2} fz="lg" mb="xs" id="calendar-title">
        Calendar subscription
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Your calendar app can follow your appointments through a private URL. Anyone with the URL can see
        them: renew it to replace it, revoke it to stop it.
      </Text>
      {feed.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : feed.error ? (
        <Alert color="red">Could not load your calendar subscription.</Alert>
      ) : (
        <Stack>
          {url && (
            <Group align="end" wrap="nowrap">
              <TextInput label="Subscription URL (shown once)" value={url} readOnly style={{ flex: 1 }} />
              <CopyButton value={url}>
                {({ copied, copy }) => (
                  <Button variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          )}
          {active && !url && <Text size="sm">Active since {formatDate(feed.data?.createdAt ?? null)}.</Text>}
          <Group>
            <Button onClick={onRenew} loading={renew.isPending}>
              {active ? 'Renew URL' : 'Subscribe'}
            </Button>
            {active && (
              <Button variant="default" color="red" onClick={onRevoke} loading={revoke.isPending}>
                Revoke
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
