// The upload form's patient search picker: searches the hospital's patients on the server and
// shows "first last" (else e-mail, else "Unknown Patient") with the MRN in parentheses, and under
// it the date of birth and e-mail, so that two patients of the same name are told apart. Nothing
// is chosen until the user picks a patient (docs/decisions.md, records: wrong-patient uploads).
import { Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { patientDisplayName, type Patient } from '../../../shared/patients';
import { usePatients } from '../patients/api';

export const patientOptionLabel = (
  p: Pick<Patient, 'firstName' | 'lastName' | 'email' | 'user' | 'patientId'>,
) => `${patientDisplayName(p)} (${p.patientId})`;

/** "Born 1985-12-10 · ada@example.test", or what of it is known. */
export const patientDetails = (p: Pick<Patient, 'dateOfBirth' | 'email' | 'user'>) =>
  [p.dateOfBirth ? `Born ${p.dateOfBirth}` : 'Date of birth not recorded', p.email ?? p.user?.email]
    .filter(Boolean)
    .join(' · ');

interface Props {
  value: string | null;
  /** The label of the chosen patient, kept when a new search does not list it. */
  selectedLabel: string | null;
  onChange: (id: string | null, label: string | null) => void;
  error?: ReactNode;
}

export function PatientPicker({ value, selectedLabel, onChange, error }: Props) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // While the box shows the chosen patient's label, list everyone rather than search for it.
  const query = debounced === selectedLabel ? '' : debounced;
  const { data, isFetching } = usePatients({ search: query, page: 1, pageSize: 20 });
  const items = data?.items ?? [];
  const options = items.map((p) => ({ value: p.id, label: patientOptionLabel(p) }));
  const byId = new Map(items.map((p) => [p.id, p]));
  if (value && selectedLabel && !options.some((o) => o.value === value)) {
    options.unshift({ value, label: selectedLabel });
  }
  return (
    <Select
      label="Patient"
      placeholder="Search by name, email or MRN"
      required
      searchable
      clearable
      filter={({ options: all }) => all}
      nothingFoundMessage={isFetching ? 'Searching...' : 'No patients found'}
      data={options}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      error={error}
      description={value && byId.has(value) ? patientDetails(byId.get(value)!) : undefined}
      onChange={(id, option) => onChange(id, option?.label ?? null)}
      renderOption={({ option }) => {
        const p = byId.get(option.value);
        const details = p ? patientDetails(p) : '';
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            {details && (
              <Text size="xs" c="dimmed">
                {details}
              </Text>
            )}
          </Stack>
        );
      }}
    />
  );
}
