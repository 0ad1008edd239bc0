// The Edit Profile modal (docs/spec.md#patient-dashboard): tabs Profile and Family Contacts (with a
// count). Used by the patient dashboard and by the profile page.
import { Badge, Tabs, Text } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { useState } from 'react';
import { useAuth } from '../../auth/context';
import { useFamilyContacts } from '../family-contacts/api';
import { useProfile } from './api';
import { FamilyContactsTab } from '../family-contacts/FamilyContactsTab';
import { ProfileForm } from './ProfileForm';
import { LoadFailed, retryIfFailed } from '../../components/LoadFailed';
import { plural } from '../../format';

export function EditProfileModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { user } = useAuth();
  const profile = useProfile(user?.id);
  const [page, setPage] = useState(1);
  const contacts = useFamilyContacts(profile.data?.id, page);
  return (
    <AppModal opened={opened} onClose={onClose} title="Edit Profile" size="lg">
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab
            value="family"
            rightSection={
              <Badge
                size="sm"
                variant="light"
                aria-label={plural(contacts.data?.total ?? 0, 'contact', 'contacts')}
              >
                {contacts.data?.total ?? 0}
              </Badge>
            }
          >
            Family Contacts
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          {profile.isLoading ? (
            <Text c="dimmed">Loading profile...</Text>
          ) : profile.isError ? (
            <LoadFailed what="Your profile" onRetry={() => void profile.refetch()} />
          ) : (
            <ProfileForm profile={profile.data ?? null} userId={user?.id ?? ''} onDone={onClose} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="family">
          <FamilyContactsTab
            patientRowId={profile.data?.id}
            contacts={contacts.data?.items}
            paging={contacts.data}
            onPage={setPage}
            isLoading={contacts.isLoading}
            // The contacts are asked for by the profile's id: without the profile, none can come.
            retryLoad={retryIfFailed(profile) ?? retryIfFailed(contacts)}
          />
        </Tabs.Panel>
      </Tabs>
    </AppModal>
  );
}
