// Profile page: the e-mail notification switch (on by default). Subjects never carry health
// details; the switch turns off every notification mail to this account.
import { Paper, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences } from '../../../shared/notifications';
import { apiJson } from '../../api/request';
import { notifyError } from '../../notify';

const KEY = ['/api/notifications/preferences'] as const;

export function EmailPreferences() {
  const client = useQueryClient();
  const prefs = useQuery<NotificationPreferences>({ queryKey: KEY });
  const save = useMutation({
    mutationFn: (input: NotificationPreferences) =>
      apiJson<NotificationPreferences>('PUT', '/api/notifications/preferences', input),
    onSuccess: (data) => client.setQueryData(KEY, data),
    onError: (e) => notifyError('E-mail notifications', e.message),
  });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="email-prefs-title">
      <Title order={2} fz="lg" mb="xs" id="email-prefs-title">
        E-mail notifications
      </Title>
      {prefs.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : prefs.error ? (
        <Text c="red">Could not load your notification settings.</Text>
      ) : (
        <Switch
          label="E-mail me about new records, appointments and reminders"
          description="Subject lines never contain health details."
          checked={prefs.data?.emailEnabled ?? true}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ emailEnabled: e.currentTarget.checked })}
        />
      )}
    </Paper>
  );
}
