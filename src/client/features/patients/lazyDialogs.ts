// The patient dialogs (the Patients tab's, the profile editor), loaded when first opened
// (components/lazyDialog.tsx).
import { lazyDialog } from '../../components/lazyDialog';

export const PatientDetailsDialog = lazyDialog(
  async () => (await import('./PatientDetailsDialog')).PatientDetailsDialog,
  (props) => props.patient !== null,
);
export const PatientFormDialog = lazyDialog(
  async () => (await import('./PatientFormDialog')).PatientFormDialog,
  (props) => props.patient !== null,
);
export const EditProfileModal = lazyDialog(
  async () => (await import('./EditProfileModal')).EditProfileModal,
  (props) => props.opened,
);
