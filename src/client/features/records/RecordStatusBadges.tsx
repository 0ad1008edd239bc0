// A record's status badges (Amended, Superseded, Entered in error; docs/decisions.md#records), apart
// from the version history so that lists showing them do not bring the amendment form along.
import { Badge } from '@mantine/core';
import type { MedicalRecord } from '../../../shared/records';

export function RecordStatusBadges({
  record,
}: {
  record: Pick<MedicalRecord, 'documentStatus' | 'supersedesId'>;
}) {
  return (
    <>
      {record.supersedesId && record.documentStatus === 'current' && <Badge color="blue">Amended</Badge>}
      {record.documentStatus === 'superseded' && <Badge color="orange">Superseded</Badge>}
      {record.documentStatus === 'entered-in-error' && <Badge color="red">Entered in error</Badge>}
    </>
  );
}
