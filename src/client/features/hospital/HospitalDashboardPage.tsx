// Placeholder created with the route table; the owning agent replaces this file's contents
// (keep the default export). Rendered at /hospital-dashboard and at / for hospital users; the
// route guard lets only role hospital in. Pass the sidebar as AppLayout's `navbar`: the header's
// mobile menu toggle opens it on small screens (useMobileNav() closes it after a choice).
import { NavLink, Stack, Text, Title } from '@mantine/core';
import { displayName } from '../../../shared/users';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';
import { useMobileNav } from '../../components/layout/MobileNav';

function Sidebar() {
  const { close } = useMobileNav();
  return (
    <Stack gap={4}>
      {['Patients', 'Upload Records', 'Appointments', 'Audit Trail', 'Settings'].map((tab, i) => (
        <NavLink key={tab} label={tab} active={i === 0} onClick={close} component="button" />
      ))}
    </Stack>
  );
}

export default function HospitalDashboardPage() {
  const { user } = useAuth();
  return (
    <AppLayout navbar={<Sidebar />}>
      <Title order={1}>Hospital Dashboard</Title>
      <Text mt="sm">Welcome, {user?.hospitalName || (user ? displayName(user) : 'Hospital')}!</Text>
    </AppLayout>
  );
}
