// Settings tab (docs/spec.md#hospital-dashboard): Hospital Profile (name, administrator e-mail and time
// zone, saved and audited) and Security Settings (two-factor sign-in as it is, with a link to its set-up on the profile
// page; for hospital admins, two-factor required of all staff; the ledger toggle, always on).
import { Button, Group, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMemo } from 'react';
import { Link } from 'react-router';
import {
  hospitalSettingsSchema,
  type HospitalSettings,
  type HospitalSettingsInput,
} from '../../../shared/hospital';
import { timeZones } from '../../../shared/time';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { notifyError, notifySuccess } from '../../notify';
import { isHospitalAdmin } from '../staff/permissions';
import { useSaveSettings, useSettings } from './api';

export function SettingsTab() {
  const { data } = useSettings();
  const { user } = useAuth();
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      {data ? (
        <ProfileForm key={`${data.hospitalName}|${data.adminEmail}|${data.timeZone}`} settings={data} />
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
          {user?.staffRole === 'hospital_admin' && data && <StaffTwoFactorSwitch settings={data} />}
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

/**
 * Whether every staff member must sign in with two-factor (docs/decisions.md#staff-accounts); saved at
 * once with the profile as it is saved. Admins only (the server refuses others the save).
 */
function StaffTwoFactorSwitch({ settings }: { settings: HospitalSettings }) {
  const { user, setUser } = useAuth();
  const save = useSaveSettings();

  async function change(required: boolean) {
    try {
      const saved = await save.mutateAsync({
        hospitalName: settings.hospitalName ?? '',
        adminEmail: settings.adminEmail ?? '',
        timeZone: settings.timeZone,
        staffTwoFactorRequired: required,
      });
      if (user) setUser({ ...user, staffTwoFactorRequired: saved.staffTwoFactorRequired });
      notifySuccess(
        'Settings Saved',
        saved.staffTwoFactorRequired
          ? 'Every staff member now needs two-factor sign-in; those without it are asked to set it up before anything else.'
          : 'Two-factor sign-in is now each staff member’s own choice.',
      );
    } catch (error) {
      notifyError('Error', errorMessage(error, 'Failed to save the settings.'));
    }
  }

  return (
    <Switch
      label="Require two-factor sign-in for all staff"
      description="While on, a staff member without two-factor sign-in can only reach their own account settings, where they set it up."
      checked={settings.staffTwoFactorRequired}
      disabled={save.isPending}
      onChange={(event) => void change(event.currentTarget.checked)}
    />
  );
}

function ProfileForm({ settings }: { settings: HospitalSettings }) {
  const { user, setUser } = useAuth();
  // Staff other than admins read the profile; the server refuses them the save.
  const readOnly = !isHospitalAdmin(user);
  const save = useSaveSettings();
  const form = useForm<HospitalSettingsInput>({
    initialValues: {
      hospitalName: settings.hospitalName ?? '',
      adminEmail: settings.adminEmail ?? '',
      timeZone: settings.timeZone,
    },
    validate: schemaResolver(hospitalSettingsSchema, { sync: true }),
  });
  const zones = useMemo(() => timeZones(), []);

  async function submit(values: HospitalSettingsInput) {
    try {
      const saved = await save.mutateAsync(hospitalSettingsSchema.parse(values));
      if (user) setUser({ ...user, hospitalName: saved.hospitalName, timeZone: saved.timeZone });
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
      <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
        <Stack maw={480}>
          {readOnly && (
            <Text size="sm" c="dimmed">
              Only a hospital admin can change the hospital profile.
            </Text>
          )}
          <TextInput
            label="Hospital Name"
            required
            readOnly={readOnly}
            {...form.getInputProps('hospitalName')}
          />
          <TextInput
            label="Administrator Email"
            type="email"
            required
            readOnly={readOnly}
            {...form.getInputProps('adminEmail')}
          />
          <Select
            label="Time Zone"
            description="Your calendar, time slots and appointment e-mails use this zone, wherever you sign in from."
            required
            searchable
            readOnly={readOnly}
            data={zones}
            allowDeselect={false}
            {...form.getInputProps('timeZone')}
          />
          {!readOnly && (
            <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
              Save Changes
            </Button>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
