// Settings tab (docs/spec.md#hospital-dashboard): Hospital Profile (name and administrator e-mail, saved and
// audited) and Security Settings (two-factor sign-in as it is, with a link to its set-up on the profile
// page; the ledger toggle, always on).
import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { hospitalSettingsSchema, type HospitalSettings } from '../../../shared/hospital';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { notifyError, notifySuccess } from '../../notify';
import { useSaveSettings, useSettings } from './api';

export function SettingsTab() {
  const { data } = useSettings();
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      {data ? (
        <ProfileForm key={`${data.hospitalName}|${data.adminEmail}`} settings={data} />
      ) : (
        <Text c="dimmed">Loading settings...</Text>
      )}
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Security Settings
        </Title>
        <Stack>
          <Group justify="space-between" align="flex-start">
            <Switch
              label="Two-Factor Authentication"
              description="A code from an authenticator app at each sign-in. Turned on and off on your profile page."
              checked={data?.twoFactorEnabled ?? false}
              disabled
              readOnly
            />
            <Button component={Link} to="/profile/edit#two-factor" variant="light" size="xs">
              {data?.twoFactorEnabled ? 'Manage' : 'Set up'}
            </Button>
          </Group>
          <Switch
            label="Blockchain Verification"
            description="Always on: every uploaded record and consent change is entered in the tamper-evident ledger."
            checked={data?.blockchainVerificationEnabled ?? true}
            disabled
            readOnly
          />
        </Stack>
      </Paper>
    </Stack>
  );
}

function ProfileForm({ settings }: { settings: HospitalSettings }) {
  const { user, setUser } = useAuth();
  const save = useSaveSettings();
  const [hospitalName, setHospitalName] = useState(settings.hospitalName ?? '');
  const [adminEmail, setAdminEmail] = useState(settings.adminEmail ?? '');
  const [errors, setErrors] = useState<{ hospitalName?: string; adminEmail?: string }>({});

  async function submit() {
    const parsed = hospitalSettingsSchema.safeParse({ hospitalName, adminEmail });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues)
        next[issue.path[0] as 'hospitalName' | 'adminEmail'] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(parsed.data);
      if (user) setUser({ ...user, hospitalName: saved.hospitalName });
      notifySuccess('Settings Saved', 'The hospital profile was updated.');
    } catch (error) {
      notifyError('Error', errorMessage(error, 'Failed to save the settings.'));
    }
  }

  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="sm">
        Hospital Profile
      </Title>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack maw={480}>
          <TextInput
            label="Hospital Name"
            required
            value={hospitalName}
            error={errors.hospitalName}
            onChange={(e) => setHospitalName(e.currentTarget.value)}
          />
          <TextInput
            label="Administrator Email"
            type="email"
            required
            value={adminEmail}
            error={errors.adminEmail}
            onChange={(e) => setAdminEmail(e.currentTarget.value)}
          />
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
            Save Changes
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
