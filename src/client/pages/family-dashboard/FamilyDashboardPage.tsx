// Family dashboard (/family-dashboard; docs/decisions.md#family-proxy-access): the patients who gave
// the signed-in family member read access, each with their shared records and upcoming appointments.
// Read-only; the list is asked for again on every visit, so ended access disappears.
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';
import { useProxyPatients } from '../../features/proxy/api';
import { ProxyPatientPanel } from '../../features/proxy/ProxyPatientPanel';
import { LoadFailed } from '../../components/LoadFailed';

export default function FamilyDashboardPage() {
  const { user } = useAuth();
  const patients = useProxyPatients();
  const list = patients.data?.patients ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const active = list.find((p) => p.id === chosen) ?? list[0];
  return (
    <AppLayout>
      <Stack>
        <div>
          <Title order={1} size="h2">
            Welcome, {user?.firstName ?? 'family member'}
          </Title>
          <Text c="dimmed">The records and appointments your family members share with you.</Text>
        </div>
        {patients.isLoading && <Text c="dimmed">Loading...</Text>}
        {patients.isError && (
          <LoadFailed what="The family members who share with you" onRetry={() => void patients.refetch()} />
        )}
        {patients.data && list.length === 0 && (
          <Text>
            Nobody shares their records with you at the moment. A patient can invite you from their family
            contacts; open the link in the invitation e-mail to accept it.
          </Text>
        )}
        {active && (
          // A tab is named after its patient: a long name wraps rather than widen the page.
          <Tabs
            value={active.id}
            onChange={setChosen}
            keepMounted={false}
            styles={{ tab: { whiteSpace: 'normal', lineHeight: 1.3 } }}
          >
            <Tabs.List>
              {list.map((p) => (
                <Tabs.Tab key={p.id} value={p.id}>
                  {p.name}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {list.map((p) => (
              <Tabs.Panel key={p.id} value={p.id} pt="md">
                <ProxyPatientPanel patient={p} />
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
      </Stack>
    </AppLayout>
  );
}
