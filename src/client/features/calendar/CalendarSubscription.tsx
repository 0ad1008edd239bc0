// Profile page: the private calendar subscription. The secret URL is shown once, right after it is
// made; afterwards the page only knows that a subscription exists and can renew or revoke it.
import { Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { formatDate } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { useCalendarFeed, useRenewFeed, useRevokeFeed } from './api';
import { LoadFailed } from '../../components/LoadFailed';

export function CalendarSubscription() {
  const feed = useCalendarFeed();
  const renew = useRenewFeed();
  const revoke = useRevokeFeed();
  const [url, setUrl] = useState<string | null>(null);
  const active = feed.data?.active ?? false;

  const subscribe = () =>
    renew.mutate(undefined, {
      onSuccess: (created) => setUrl(created.url),
      onError: (e) => notifyError('Calendar subscription', e.message),
    });
  const revokeFeed = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setUrl(null);
        notifySuccess('Calendar subscription', 'The subscription URL no longer works.');
      },
      onError: (e) => notifyError('Calendar subscription', e.message),
    });
  // Both end the URL a calendar app may follow: asked first, so one stray click does not empty it.
  const confirmEnd = (title: string, consequence: string, confirm: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      children: (
        <Text size="sm">
          The calendar apps that follow your current URL will stop receiving your appointments. {consequence}
        </Text>
      ),
      labels: { confirm, cancel: 'Keep current URL' },
      confirmProps: { color: 'red' },
      onConfirm,
    });
  const onRenew = () =>
    active
      ? confirmEnd('Renew calendar URL', 'You will need to add the new URL to them.', 'Renew URL', subscribe)
      : subscribe();
  const onRevoke = () =>
    confirmEnd('Revoke calendar URL', 'You can subscribe again later.', 'Revoke URL', revokeFeed);

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
        <LoadFailed
          what="Your calendar subscription"
          error={feed.error}
          onRetry={() => void feed.refetch()}
        />
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
