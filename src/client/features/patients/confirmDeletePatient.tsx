// Deleting a patient: a first and a final confirmation, then the delete call (docs/spec.md#states).
// The server archives the patient: records stay and the patient's own account keeps them.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { patientDisplayName } from '../../../shared/patient-name';
import type { Patient } from '../../../shared/patients';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';

type DeleteCall = (patientRowId: string) => Promise<unknown>;

async function deletePatient(patient: Patient, remove: DeleteCall) {
  try {
    await remove(patient.id);
    notifySuccess('Patient Deleted', `${patientDisplayName(patient)} was removed from your patient list.`);
  } catch (error) {
    const message = errorMessage(error, '');
    if (message) notifyError('Delete Failed', message);
    else notifyError('Error', 'An error occurred while deleting the patient');
  }
}

/** `remove` is useDeletePatient's call (features/patients/api.ts). */
export function confirmDeletePatient(patient: Patient, remove: DeleteCall) {
  const name = patientDisplayName(patient);
  modals.openConfirmModal({
    title: 'Delete patient?',
    children: (
      <Text size="sm">
        Remove {name} ({patient.patientId}) from your patient list? Their medical records are kept and stay
        available to the patient.
      </Text>
    ),
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: () =>
      modals.openConfirmModal({
        title: 'Are you sure?',
        children: (
          <Text size="sm">
            This is the final confirmation. {name} will no longer appear in your patient list.
          </Text>
        ),
        labels: { confirm: 'Yes, delete patient', cancel: 'Keep patient' },
        confirmProps: { color: 'red' },
        onConfirm: () => void deletePatient(patient, remove),
      }),
  });
}
