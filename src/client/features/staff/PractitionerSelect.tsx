// The practitioner an upload or an appointment names (docs/decisions.md#staff-accounts): one of the
// organization's clinicians and admins, by id, so "Dr House" and "Dr. House" are one person to the
// conflict check. Left empty, the form's free-text doctor name is used instead, as before.
import { Select } from '@mantine/core';
import type { Practitioner } from '../../../shared/staff';
import { STAFF_ROLE_LABELS } from '../../../shared/staff';
import { usePractitioners } from './api';

interface Props {
  value: string | null;
  onChange: (practitioner: Practitioner | null) => void;
  error?: React.ReactNode;
}

const optionLabel = (p: Practitioner) => `${p.name} · ${p.department ?? STAFF_ROLE_LABELS[p.staffRole]}`;

export function PractitionerSelect({ value, onChange, error }: Props) {
  const practitioners = usePractitioners();
  const list = practitioners.data ?? [];
  // A booking with someone since deactivated still shows whom it was with.
  const known = value === null || list.some((p) => p.id === value);
  return (
    <Select
      label="Practitioner"
      placeholder={practitioners.isLoading ? 'Loading practitioners…' : 'Other (type the doctor’s name)'}
      description={known ? undefined : 'No longer an active member of staff'}
      data={[
        ...list.map((p) => ({ value: p.id, label: optionLabel(p) })),
        ...(known || value === null ? [] : [{ value, label: 'Former member of staff' }]),
      ]}
      value={value}
      onChange={(id) => onChange(list.find((p) => p.id === id) ?? null)}
      searchable
      clearable
      nothingFoundMessage="No practitioner of that name"
      error={
        error ??
        (practitioners.isError ? 'The practitioners could not be loaded; type the name instead.' : undefined)
      }
    />
  );
}
