// Profile page: the e-mail notification switch (on by default). Subjects never carry health
// details; the switch turns off every notification mail to this account.
import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifyError } from '../../notify';
import { useNotificationPreferences, useSaveNotificationPreferences } from './api';

export function EmailPreferences() {
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreferences((e) => notifyError('E-mail notifications', e.message));

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
        <Stack gap="sm">
          <Switch
            label="E-mail me about new records, appointments and reminders"
            description="Subject lines never contain health details."
            checked={prefs.data?.emailEnabled ?? true}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ emailEnabled: e.currentTarget.checked })}
          />
          <Switch
            label="E-mail me when my account is signed in to from a new device"
            description="A security notice with the device, address and time of the sign-in."
            checked={prefs.data?.newSignInEnabled ?? true}
            disabled={save.isPending}
            onChange={(e) => save.mutate({ newSignInEnabled: e.currentTarget.checked })}
          />
        </Stack>
      )}
    </Paper>
  );
}
