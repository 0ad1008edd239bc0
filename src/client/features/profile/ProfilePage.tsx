// Profile page (docs/spec.md#other-pages, /profile/edit). Hospital users see read-only account and hospital
// details; patients get the Edit Profile button, which opens the patient dashboard's modal. Every role
// gets two-factor sign-in, password change and the sessions list (issue 9).
import { Alert, Button, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEdit, IconInfoCircle, IconMail } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Role } from '../../../shared/constants';
import { displayName, type PublicUser } from '../../../shared/users';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';
import { EditProfileModal } from '../patients/lazyDialogs';
import { CalendarSubscription } from '../calendar/CalendarSubscription';
import { EmailPreferences } from '../notifications/EmailPreferences';
import { PasswordChangeForm } from '../account/PasswordChangeForm';
import { SessionsList } from '../account/SessionsList';
import { TwoFactorSection } from '../account/TwoFactorSection';
import { Panel } from '../../components/Panel';

const ROLE_LABELS: Record<Role, string> = {
  hospital: 'Hospital',
  patient: 'Patient',
  medledger_admin: 'MedLedger Administrator',
  family: 'Family member',
};

const DASHBOARD_FOR: Record<Role, string> = {
  hospital: '/hospital-dashboard',
  patient: '/patient-dashboard',
  medledger_admin: '/medledger/applications',
  family: '/family-dashboard',
};

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{value}</Text>
    </Stack>
  );
}

function AccountInfo({ user }: { user: PublicUser }) {
  return (
    <Panel title="Account Information">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label="Name" value={displayName(user)} />
        <Field label="Email" value={user.email} />
        <Field label="Role" value={ROLE_LABELS[user.role]} />
      </SimpleGrid>
    </Panel>
  );
}

function HospitalInfo({ user }: { user: PublicUser }) {
  return (
    <Panel title="Hospital Information">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label="Hospital Name" value={user.hospitalName || 'Not provided'} />
        <Field label="Department" value="Healthcare Administration" />
        <Field label="Access Level" value="Full Hospital Access" />
      </SimpleGrid>
      <Divider my="md" />
      <Alert variant="light" icon={<IconInfoCircle aria-hidden />} role="note">
        Hospital details are managed by a system administrator.
      </Alert>
      <Button mt="md" variant="default" leftSection={<IconMail size={16} aria-hidden />} disabled>
        Contact Administrator
      </Button>
    </Panel>
  );
}

function PatientProfile() {
  const [editing, setEditing] = useState(false);
  return (
    <Panel title="Your Profile" mb="xs">
      <Text size="sm" c="dimmed" mb="md" id="edit-profile-note">
        Change your phone, primary care physician, insurance details and family contacts.
      </Text>
      <Button
        leftSection={<IconEdit size={16} aria-hidden />}
        aria-describedby="edit-profile-note"
        onClick={() => setEditing(true)}
      >
        Edit Profile
      </Button>
      {editing && <EditProfileModal opened onClose={() => setEditing(false)} />}
    </Panel>
  );
}

export default function ProfilePage() {
  const { user } = useAuth();
  const { hash } = useLocation();
  // Links such as /profile/edit#sessions (the new sign-in mail) scroll to their section.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);
  // The route guard only renders this page for a signed-in user.
  if (!user) return null;
  return (
    <AppLayout>
      <Stack gap="lg" maw={900} mx="auto">
        <Group justify="space-between">
          <Title order={1}>Profile</Title>
          <Button
            component={Link}
            to={DASHBOARD_FOR[user.role]}
            variant="light"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Dashboard
          </Button>
        </Group>
        <AccountInfo user={user} />
        {user.role === 'hospital' && <HospitalInfo user={user} />}
        {user.role === 'patient' && <PatientProfile />}
        {user.role === 'patient' && <CalendarSubscription />}
        <TwoFactorSection />
        <PasswordChangeForm />
        <SessionsList />
        {user.role !== 'family' && <EmailPreferences />}
      </Stack>
    </AppLayout>
  );
}
