// Placeholder created with the route table; the owning agent replaces this file's contents
// (keep the default export). The route guard lets only medledger_admin in.
import { Text, Title } from '@mantine/core';
import { AppLayout } from '../../components/layout/AppLayout';

export default function ApplicationsPage() {
  return (
    <AppLayout>
      <Title order={1}>Provider Applications</Title>
      <Text c="dimmed" mt="sm">
        This page is being built.
      </Text>
    </AppLayout>
  );
}
