// Placeholder created with the route table; whoever builds the patient dashboard replaces this
// file's contents (keep the default export). The route guard lets only role patient in.
import { Text, Title } from '@mantine/core';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';

export default function PatientDashboardPage() {
  const { user } = useAuth();
  return (
    <AppLayout>
      <Title order={1}>Welcome back, {user?.firstName?.trim() || 'Patient'}!</Title>
      <Text c="dimmed" mt="sm">
        Your records and appointments will appear here.
      </Text>
    </AppLayout>
  );
}
