// One patient on the Family dashboard (docs/decisions.md#family-proxy-access): their current records
// shared with family (open, download; the record view shows the ledger verification) and their
// upcoming appointments. Read-only: the family member changes nothing.
import { Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { APPOINTMENT_TYPE_LABELS } from '../../../shared/appointments';
import type { ProxyPatient } from '../../../shared/proxy';
import { ListPager } from '../../components/ListPager';
import { LoadFailed, retryIfFailed } from '../../components/LoadFailed';
import { departmentLabel, formatDate } from '../../format';
import { useDisplayZone } from '../../time';
import { whenForViewer } from '../appointments/calendar';
import { downloadAttachment, recordDownload } from '../records/download';
import { RecordDetailDialog } from '../records/lazyDialogs';
import { useProxyAppointments, useProxyRecords } from './api';
import { DownloadButton } from '../../components/SmallButton';
import { Panel } from '../../components/Panel';
import { OpenRecordButton } from '../records/OpenRecordButton';
import { ListRow } from '../../components/ListRow';
import { errorStatus } from '../../api/request';
import { readableText } from '../../theme';

function ProxyRecords({ patient, onOpen }: { patient: ProxyPatient; onOpen: (id: string) => void }) {
  const [page, setPage] = useState(1);
  const records = useProxyRecords(patient.id, page);
  const items = records.data?.items ?? [];
  // A grant that ended answers 404 (the patient is not theirs to see any more): Try again would not
  // help there. Any other failure (the server or the connection) gets Try again.
  const accessEnded = records.isError && errorStatus(records.error) === 404;
  const retryLoad = accessEnded ? undefined : retryIfFailed(records);
  return (
    <Panel title="Medical Records" label={`Records of ${patient.name}`} order={3} p="md" mb="sm">
      {records.isLoading && <Text c="dimmed">Loading medical records...</Text>}
      {accessEnded && (
        <Text c={readableText('red')}>These records cannot be shown: the access may have ended.</Text>
      )}
      {retryLoad && <LoadFailed what="Medical records" onRetry={retryLoad} error={records.error} />}
      {records.data && items.length === 0 && (
        <Text c="dimmed">{patient.name} has not shared any records with family yet.</Text>
      )}
      <Stack gap="xs" component="ul" p={0} m={0}>
        {items.map((r) => {
          const file = recordDownload(r);
          return (
            <Paper key={r.id} withBorder p="sm" component="li" style={{ listStyle: 'none' }}>
              <ListRow
                actions={
                  file && <DownloadButton name={r.title} onClick={() => void downloadAttachment(file)} />
                }
              >
                <OpenRecordButton title={r.title} onOpen={() => onOpen(r.id)}>
                  <Text size="xs" c="dimmed">
                    {formatDate(r.serviceDate ?? r.createdAt)} · {r.doctorName ?? '—'} ·{' '}
                    {departmentLabel(r.department)}
                  </Text>
                </OpenRecordButton>
              </ListRow>
            </Paper>
          );
        })}
      </Stack>
      <ListPager list={records.data} one="record" other="records" onPage={setPage} hideEmpty />
    </Panel>
  );
}

function ProxyAppointments({ patient }: { patient: ProxyPatient }) {
  const appointments = useProxyAppointments(patient.id);
  const zone = useDisplayZone();
  const items = appointments.data?.items ?? [];
  const retryLoad = retryIfFailed(appointments);
  return (
    <Panel title="Upcoming Appointments" label={`Appointments of ${patient.name}`} order={3} p="md" mb="sm">
      {appointments.isLoading && <Text c="dimmed">Loading appointments...</Text>}
      {retryLoad && <LoadFailed what="Appointments" onRetry={retryLoad} error={appointments.error} />}
      {appointments.data && items.length === 0 && <Text c="dimmed">No upcoming appointments.</Text>}
      <Stack gap="xs">
        {items.map((a) => {
          const when = whenForViewer(a, zone);
          return (
            <div key={a.id}>
              <Text size="sm" fw={500}>
                {APPOINTMENT_TYPE_LABELS[a.appointmentType as keyof typeof APPOINTMENT_TYPE_LABELS] ??
                  a.appointmentType}{' '}
                · {a.doctorName}
              </Text>
              <Text size="xs" c="dimmed">
                {when.local}
                {when.hospital ? ` (${when.hospital})` : ''} · {departmentLabel(a.department)}
                {a.location ? ` · ${a.location}` : ''}
              </Text>
            </div>
          );
        })}
      </Stack>
      {appointments.data && appointments.data.total > items.length && (
        <Text size="xs" c="dimmed" mt="xs">
          {appointments.data.total - items.length} more not shown.
        </Text>
      )}
    </Panel>
  );
}

export function ProxyPatientPanel({ patient }: { patient: ProxyPatient }) {
  const [openRecordId, setOpenRecordId] = useState<string | null>(null);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        MRN {patient.mrn} · you are their {patient.relationship} · access since {formatDate(patient.since)}
      </Text>
      <ProxyRecords patient={patient} onOpen={setOpenRecordId} />
      <ProxyAppointments patient={patient} />
      <RecordDetailDialog recordId={openRecordId} onClose={() => setOpenRecordId(null)} readOnly />
    </Stack>
  );
}
