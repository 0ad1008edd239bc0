// The upload form's patient search picker: searches the hospital's patients on the server and
// shows "first last" (else e-mail, else "Unknown Patient") with the MRN in parentheses.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { patientDisplayName, type Patient } from '../../../shared/patients';
import { usePatients } from '../hospital/api';

export const patientOptionLabel = (
  p: Pick<Patient, 'firstName' | 'lastName' | 'email' | 'user' | 'patientId'>,
) => `${patientDisplayName(p)} (${p.patientId})`;

interface Props {
  value: string | null;
  /** The label of the chosen patient, kept when a new search does not list it. */
  selectedLabel: string | null;
  onChange: (id: string | null, label: string | null) => void;
  error?: string;
}

export function PatientPicker({ value, selectedLabel, onChange, error }: Props) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // While the box shows the chosen patient's label, list everyone rather than search for it.
  const query = debounced === selectedLabel ? '' : debounced;
  const { data, isFetching } = usePatients({ search: query, page: 1, pageSize: 20 });
  const options = (data?.items ?? []).map((p) => ({ value: p.id, label: patientOptionLabel(p) }));
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
      onChange={(id, option) => onChange(id, option?.label ?? null)}
    />
  );
}
