// Patients tab (docs/spec.md#hospital-dashboard "Patient Management"): server-side search (name,
// e-mail, MRN), department filter, paging with working Previous / Next, add, view, edit and delete.
import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconEdit, IconFolderOpen, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { patientDisplayName } from '../../../shared/patient-name';
import type { Patient } from '../../../shared/patients';
import { useDeletePatient, usePatients } from './api';
import { FIRST_PATIENTS_PAGE } from './keys';
import { DEPARTMENT_OPTIONS, formatDate } from '../../format';
import { confirmDeletePatient } from './confirmDeletePatient';
import { PatientDetailsDialog, PatientFormDialog } from './lazyDialogs';
import { ListPager } from '../../components/ListPager';
import { TableStatus } from '../../components/TableStatus';
import { IconAction } from '../../components/IconAction';
import { ListTable, useScreenFrom, type Column } from '../../components/ListTable';
import { FilterBar, FilterSelect, SearchField } from '../../components/FilterBar';
import { retryIfFailed } from '../../components/LoadFailed';
import { useAuth } from '../../auth/context';
import { mayArchivePatients } from '../staff/permissions';

// On a phone only the name (with the MRN under it) and the actions: no sideways scrolling.
const PATIENT_COLUMNS: Column[] = [
  'Patient',
  { label: 'ID', visibleFrom: 'sm' },
  { label: 'Primary Care', visibleFrom: 'md' },
  { label: 'Last Visit', visibleFrom: 'md' },
  { label: 'Status', visibleFrom: 'md' },
  'Actions',
];

export function PatientsTab() {
  const [searchInput, setSearchInput] = useState(FIRST_PATIENTS_PAGE.search);
  const [department, setDepartment] = useState(FIRST_PATIENTS_PAGE.department);
  const [search, setSearch] = useState(FIRST_PATIENTS_PAGE.search);
  const [page, setPage] = useState(FIRST_PATIENTS_PAGE.page);
  const [formFor, setFormFor] = useState<Patient | 'new' | null>(null);
  const [details, setDetails] = useState<Patient | null>(null);
  const patients = usePatients({
    search,
    department,
    page,
    pageSize: FIRST_PATIENTS_PAGE.pageSize,
  });
  const { data, isLoading } = patients;
  const deletePatient = useDeletePatient();
  const { user } = useAuth();
  const mayDelete = mayArchivePatients(user);
  const screenFrom = useScreenFrom();

  const applyFilters = () => {
    setSearch(searchInput.trim());
    setPage(1);
  };
  const items = data?.items ?? [];
  const rowActions = (p: Patient) => {
    const name = patientDisplayName(p);
    return [
      {
        icon: IconFolderOpen,
        tip: 'Open patient file',
        label: `Open patient file of ${name}`,
        onClick: () => setDetails(p),
      },
      { icon: IconEdit, tip: 'Edit', label: `Edit ${name}`, onClick: () => setFormFor(p) },
      // Front desk may not archive a patient (the server refuses it).
      ...(mayDelete
        ? [
            {
              icon: IconTrash,
              tip: 'Delete',
              label: `Delete ${name}`,
              color: 'red',
              onClick: () => confirmDeletePatient(p, deletePatient.mutateAsync),
            },
          ]
        : []),
    ];
  };
  const filtered = search !== '' || department !== 'all';
  const emptyText = filtered
    ? 'No patients match your search.'
    : 'No patients found. Add patients to get started.';

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Patient Management</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setFormFor('new')}>
          Add Patient
        </Button>
      </Group>

      <FilterBar onApply={applyFilters}>
        <SearchField
          label="Search patients"
          placeholder="Search by name, email or MRN"
          value={searchInput}
          onChange={setSearchInput}
        />
        <FilterSelect
          label="Department"
          w={200}
          data={[{ value: 'all', label: 'All' }, ...DEPARTMENT_OPTIONS]}
          value={department}
          onChange={(value) => {
            setDepartment(value);
            setPage(1);
          }}
        />
        <Button type="submit" variant="light">
          Filter
        </Button>
      </FilterBar>

      <Paper withBorder>
        <ListTable columns={PATIENT_COLUMNS} verticalSpacing="sm" aria-label="Patients">
          {items.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {patientDisplayName(p)}
                </Text>
                {(p.email ?? p.user?.email) && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {p.email ?? p.user?.email}
                  </Text>
                )}
                {!screenFrom('sm') && (
                  <Text ff="monospace" size="xs">
                    {p.patientId}
                  </Text>
                )}
              </Table.Td>
              {screenFrom('sm') && (
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {p.patientId}
                  </Text>
                </Table.Td>
              )}
              {screenFrom('md') && (
                <>
                  <Table.Td>{p.primaryCarePhysician || '—'}</Table.Td>
                  <Table.Td>{formatDate(p.lastVisit)}</Table.Td>
                  <Table.Td>
                    <Badge color="green" variant="light">
                      Active
                    </Badge>
                  </Table.Td>
                </>
              )}
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {rowActions(p).map((action) => (
                    <IconAction key={action.tip} iconSize={18} {...action} />
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
        <TableStatus
          loading={isLoading}
          rows={items.length}
          what="patients"
          empty={emptyText}
          retryLoad={retryIfFailed(patients)}
        />
        {/* Empty, the status above says why ("No patients found…"); no second "No patients". */}
        <ListPager p="md" list={data} page={page} one="patient" other="patients" onPage={setPage} hideEmpty />
      </Paper>

      <PatientFormDialog patient={formFor} onClose={() => setFormFor(null)} />
      <PatientDetailsDialog patient={details} onClose={() => setDetails(null)} />
    </Stack>
  );
}
