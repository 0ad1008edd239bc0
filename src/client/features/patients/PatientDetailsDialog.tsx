// Patient details dialog (docs/spec.md#hospital-dashboard): contact, medical, insurance and account
// details; the patient's medical records with View and Download; Upload Record opens a dialog whose
// Done button reloads the list. Front-desk staff see the records listed, without View, Download,
// Upload or Export (docs/decisions.md#staff-accounts).
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconKey, IconLock, IconUpload } from '@tabler/icons-react';
import { FhirExportButton } from '../fhir/FhirExportButton';
import { useState } from 'react';
import { patientDisplayName, type Patient } from '../../../shared/patients';
import { ListPager } from '../../components/ListPager';
import { useIssueActivationCode } from './api';
import { usePatientRecords, useRefreshPatientRecords } from '../records/api';
import { formatDate, genderLabel } from '../../format';
import { downloadRecord } from '../records/download';
import { RecordDetailDialog } from '../records/RecordDetailDialog';
import { PatientRecordRow } from '../records/PatientRecordRow';
import { STAFF_MESSAGES } from '../../../shared/staff-messages';
import { useAuth } from '../../auth/context';
import { readsRecordContents } from '../staff/permissions';
import { UploadRecordForm } from '../records/UploadRecordForm';
import { errorMessage } from '../../api/request';
import { notifyError } from '../../notify';
import { ActivationCodeModal, type ActivationDetails } from './ActivationCode';
import { SmallButton } from '../../components/SmallButton';
import { LoadFailed } from '../../components/LoadFailed';
import { languageName } from './LanguageSelect';

function Section({ title, rows }: { title: string; rows: [string, string | null | undefined][] }) {
  return (
    <Paper withBorder p="sm">
      <Title order={3} size="h6" mb={6}>
        {title}
      </Title>
      <Stack gap={4}>
        {rows.map(([label, value]) => (
          <Group key={label} gap="xs" wrap="nowrap" align="start">
            <Text size="sm" c="dimmed" w={140} flex="none">
              {label}
            </Text>
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {value || 'Not provided'}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

export function PatientDetailsDialog({ patient, onClose }: { patient: Patient | null; onClose: () => void }) {
  return (
    <AppModal
      opened={!!patient}
      onClose={onClose}
      size="xl"
      title={patient ? patientDisplayName(patient) : 'Patient'}
    >
      {patient && <PatientDetails patient={patient} />}
    </AppModal>
  );
}

function PatientDetails({ patient }: { patient: Patient }) {
  const refreshRecords = useRefreshPatientRecords(patient.id);
  const [allVersions, setAllVersions] = useState(false);
  const [page, setPage] = useState(1);
  const records = usePatientRecords(patient.id, allVersions, page);
  const { user } = useAuth();
  // Front desk: which records exist, without open, download, upload or export (the server refuses them).
  const contents = readsRecordContents(user);
  const [viewing, setViewing] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  // A new key empties the upload form after each upload.
  const [formKey, setFormKey] = useState(0);
  const label = `${patientDisplayName(patient)} (${patient.patientId})`;
  const issue = useIssueActivationCode();
  const [issued, setIssued] = useState<ActivationDetails | null>(null);

  async function newActivationCode() {
    try {
      const code = await issue.mutateAsync(patient.id);
      setIssued({ ...code, patientName: patientDisplayName(patient), mrn: patient.patientId });
    } catch (error) {
      notifyError(
        'No New Code',
        errorMessage(error, 'A new activation code could not be issued. Please try again.'),
      );
    }
  }

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Section
          title="Contact"
          rows={[
            ['Email', patient.email ?? patient.user?.email],
            ['Phone', patient.phone],
            ['Address', patient.address],
            ['Preferred language', languageName(patient.preferredLanguage)],
            [
              'Emergency contact',
              [patient.emergencyContactName, patient.emergencyContactPhone].filter(Boolean).join(' · '),
            ],
          ]}
        />
        <Section
          title="Medical"
          rows={[
            ['Date of birth', formatDate(patient.dateOfBirth, '')],
            ['Gender', genderLabel(patient.gender)],
            ['Primary care', patient.primaryCarePhysician],
            ['Last visit', formatDate(patient.lastVisit, '')],
          ]}
        />
        <Section
          title="Insurance"
          rows={[
            ['Provider', patient.insuranceProvider],
            ['Policy number', patient.insurancePolicy],
          ]}
        />
        <Section
          title="Account"
          rows={[
            ['MRN', patient.patientId],
            [
              'Patient account',
              patient.user
                ? `Created (${patient.user.email})`
                : 'Not created yet: give the patient the MRN and their activation code',
            ],
            ['Added', formatDate(patient.createdAt)],
          ]}
        />
      </SimpleGrid>
      {!patient.user && (
        <Group justify="flex-end">
          <SmallButton icon={IconKey} loading={issue.isPending} onClick={() => void newActivationCode()}>
            New Activation Code
          </SmallButton>
        </Group>
      )}
      <ActivationCodeModal details={issued} title="New Activation Code" onClose={() => setIssued(null)} />

      <Group justify="space-between">
        <Title order={3} size="h4">
          Medical Records
        </Title>
        <Group gap="xs">
          {contents && (
            <>
              <FhirExportButton size="xs" patientRowId={patient.id} label="Export (FHIR)" />
              <SmallButton icon={IconUpload} onClick={() => setUploading(true)}>
                Upload Record
              </SmallButton>
            </>
          )}
        </Group>
      </Group>
      <Switch
        label="Show earlier versions and records entered in error"
        checked={allVersions}
        onChange={(e) => {
          setAllVersions(e.currentTarget.checked);
          setPage(1);
        }}
      />
      {!contents && (
        <Alert color="gray" icon={<IconLock aria-hidden />} role="note">
          {STAFF_MESSAGES.noRecordContents}
        </Alert>
      )}
      {records.isLoading && <Text c="dimmed">Loading records...</Text>}
      {records.isError && <LoadFailed what="The records" onRetry={() => void records.refetch()} />}
      {records.data?.total === 0 && <Text c="dimmed">No medical records yet.</Text>}
      <Stack component="section" gap="xs" aria-label="Medical records">
        {records.data?.items.map((r) => (
          <PatientRecordRow
            key={r.id}
            record={r}
            contents={contents}
            onView={() => setViewing(r.id)}
            onDownload={() => void downloadRecord(r)}
          />
        ))}
      </Stack>
      <ListPager list={records.data} one="record" other="records" onPage={setPage} hideEmpty />

      <AppModal
        opened={contents && uploading}
        onClose={() => setUploading(false)}
        title="Upload Record"
        size="lg"
      >
        <Stack>
          <UploadRecordForm
            key={formKey}
            fixedPatient={{ id: patient.id, label }}
            onSaved={() => setFormKey((k) => k + 1)}
          />
          <Button
            variant="default"
            onClick={() => {
              setUploading(false);
              refreshRecords();
            }}
          >
            Done
          </Button>
        </Stack>
      </AppModal>
      <RecordDetailDialog recordId={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}
