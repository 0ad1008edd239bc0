// Profile page: the e-mail notification switch (on by default). Subjects never carry health
// details; the switch turns off every notification mail to this account.
import { Stack, Switch, Text } from '@mantine/core';
import { notifyError } from '../../notify';
import { useNotificationPreferences, useSaveNotificationPreferences } from './api';
import { Panel } from '../../components/Panel';
import { LoadFailed } from '../../components/LoadFailed';

const SWITCHES = [
  {
    field: 'emailEnabled',
    label: 'E-mail me about new records, appointments and reminders',
    description: 'Subject lines never contain health details.',
  },
  {
    field: 'newSignInEnabled',
    label: 'E-mail me when my account is signed in to from a new device',
    description: 'A security notice with the device, address and time of the sign-in.',
  },
] as const;

export function EmailPreferences() {
  const prefs = useNotificationPreferences();
  const save = useSaveNotificationPreferences((e) => notifyError('E-mail notifications', e.message));

  return (
    <Panel title="E-mail notifications" mb="xs">
      {prefs.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : prefs.error ? (
        <LoadFailed
          what="Your notification settings"
          error={prefs.error}
          onRetry={() => void prefs.refetch()}
        />
      ) : (
        <Stack gap="sm">
          {SWITCHES.map(({ field, label, description }) => (
            <Switch
              key={field}
              label={label}
              description={description}
              checked={prefs.data?.[field] ?? true}
              disabled={save.isPending}
              onChange={(e) => save.mutate({ [field]: e.currentTarget.checked })}
            />
          ))}
        </Stack>
      )}
    </Panel>
  );
}
