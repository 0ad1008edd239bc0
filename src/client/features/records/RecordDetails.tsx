// The "Record Details" panel (type, department, provider and whether it is verified, description):
// the record dialog's, and the shared record's page (docs/decisions.md#specialist-share-links).
import { Group, Paper, Text, Title } from '@mantine/core';
import type { MedicalRecord } from '../../../shared/records';
import { ProviderVerification } from '../../components/ProviderVerification';
import { departmentLabel, formatDate, recordTypeLabel } from '../../format';

export function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

type Details = Pick<
  MedicalRecord,
  'recordType' | 'department' | 'serviceDate' | 'providerName' | 'providerVerified' | 'description'
>;

export function RecordDetails({ record, headingOrder = 3 }: { record: Details; headingOrder?: 2 | 3 }) {
  return (
    <Paper withBorder p="md">
      <Title order={headingOrder} size="h5" mb="xs">
        Record Details
      </Title>
      <Group grow align="start">
        <Field label="Type" value={recordTypeLabel(record.recordType)} />
        <Field label="Department" value={departmentLabel(record.department)} />
        {record.serviceDate && <Field label="Date of Service" value={formatDate(record.serviceDate)} />}
        <Field label="Provider" value={record.providerName ?? '—'} />
      </Group>
      <ProviderVerification verified={record.providerVerified} size="sm" />
      {record.description && (
        <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {record.description}
        </Text>
      )}
    </Paper>
  );
}
