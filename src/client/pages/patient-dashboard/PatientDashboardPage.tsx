// Patient dashboard (docs/spec.md#patient-dashboard, /patient-dashboard; the route guard lets only
// patients in): greeting, stat cards, recent records with the record detail view, upcoming
// appointments, activity trail, profile summary with the Edit Profile modal, and the consent card.
import { Grid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAuth } from '../../auth/context';
import { AppLayout } from '../../components/layout/AppLayout';
import { RecordDetailDialog } from '../../features/records/lazyDialogs';
import { ActivityTrail } from '../../features/audit/ActivityTrail';
import { FhirExportButton } from '../../features/fhir/FhirExportButton';
import { useRefreshActivity } from '../../features/audit/api';
import { useProfile } from '../../features/patients/api';
import { useOwnRecords, useRefreshOwnRecords } from '../../features/records/api';
import { ConsentCard } from '../../features/consent/ConsentCard';
import { newNotificationCount, verifiedCount } from './dashboard';
import { EditProfileModal } from '../../features/patients/lazyDialogs';
import { ProfileSummary } from '../../features/patients/ProfileSummary';
import { RecentRecords } from '../../features/records/RecentRecords';
import { StatCards } from './StatCards';
import { retryIfFailed } from '../../components/LoadFailed';
import {
  UpcomingAppointments,
  useUpcomingAppointments,
} from '../../features/appointments/UpcomingAppointments';

export default function PatientDashboardPage() {
  const { user } = useAuth();
  const refreshOwnRecords = useRefreshOwnRecords();
  const refreshActivity = useRefreshActivity();
  const [allVersions, setAllVersions] = useState(false);
  const [page, setPage] = useState(1);
  const records = useOwnRecords(allVersions, page);
  const profile = useProfile(user?.id);
  const upcoming = useUpcomingAppointments();
  const [openRecordId, setOpenRecordId] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const list = records.data?.items ?? [];
  // The figures count current records only, whichever versions the list shows: the total from the
  // server (all pages) when the list shows current ones; the others are of the page shown.
  const current = list.filter((r) => r.documentStatus === 'current');
  const currentTotal = allVersions ? current.length : (records.data?.total ?? 0);

  return (
    <AppLayout>
      <Stack gap="lg">
        <div>
          <Title order={1}>Welcome back, {user?.firstName?.trim() || 'Patient'}!</Title>
          <Text c="dimmed">Your medical records, secured and verified on the blockchain.</Text>
        </div>
        <StatCards
          records={records.data ? currentTotal : null}
          upcoming={upcoming.retryLoad ? null : upcoming.items.length + upcoming.more}
          notifications={records.data ? newNotificationCount(current, user?.lastLoginAt ?? null) : null}
          verified={records.data ? verifiedCount(current) : null}
        />
        <Grid>
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Stack>
              <RecentRecords
                records={list}
                paging={records.data}
                onPage={setPage}
                isLoading={records.isLoading}
                retryLoad={retryIfFailed(records)}
                onOpen={setOpenRecordId}
                showAllVersions={allVersions}
                onShowAllVersionsChange={(all) => {
                  setAllVersions(all);
                  setPage(1);
                }}
              />
              <UpcomingAppointments
                appointments={upcoming.items}
                more={upcoming.more}
                retryLoad={upcoming.retryLoad}
              />
              <ActivityTrail />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Stack>
              <ProfileSummary
                profile={profile.data ?? null}
                isLoading={profile.isLoading}
                retryLoad={retryIfFailed(profile)}
                onEdit={() => setEditing(true)}
              />
              {profile.data && (
                <FhirExportButton patientRowId={profile.data.id} label="Download my data (FHIR)" fullWidth />
              )}
              {user && <ConsentCard userId={user.id} />}
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
      <RecordDetailDialog
        recordId={openRecordId}
        onClose={() => {
          setOpenRecordId(null);
          // Viewing marks the record as viewed and adds to the trail.
          refreshOwnRecords();
          void refreshActivity();
        }}
      />
      {editing && <EditProfileModal opened onClose={() => setEditing(false)} />}
    </AppLayout>
  );
}
