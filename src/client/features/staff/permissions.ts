// What the signed-in staff member's role lets them do in the hospital dashboard, as the routes
// declare it (docs/decisions.md#staff-accounts, the table of route groups): what the server
// refuses (403) is not offered. A hospital user without a staff role (a session from before staff
// accounts) is treated as the organization's own account, which is its admin.
import type { StaffRole } from '../../../shared/constants';
import type { PublicUser } from '../../../shared/users';

type Who = Pick<PublicUser, 'role' | 'staffRole'> | null | undefined;

const staffRoleOf = (user: Who): StaffRole | null =>
  user?.role === 'hospital' ? (user.staffRole ?? 'hospital_admin') : null;

/** Open, download, upload, share and export records: admins and clinicians, not the front desk. */
export const readsRecordContents = (user: Who) => staffRoleOf(user) !== 'front_desk';

/** The staff page, saving the settings and the organization's audit trail. */
export const isHospitalAdmin = (user: Who) => staffRoleOf(user) === 'hospital_admin';

/** Archive (delete) a patient: admins and clinicians. */
export const mayArchivePatients = (user: Who) => staffRoleOf(user) !== 'front_desk';

/** The organization the signed-in member works for: the id every hospital API takes. */
export const organizationIdOf = (user: Pick<PublicUser, 'id' | 'hospitalId'> | null | undefined) =>
  user ? (user.hospitalId ?? user.id) : undefined;

/** Whom a new upload or appointment names by default: the signed-in clinician (not an admin or the desk). */
export const defaultPractitionerId = (
  user: Pick<PublicUser, 'id' | 'role' | 'staffRole'> | null | undefined,
): string | null => (user && staffRoleOf(user) === 'clinician' ? user.id : null);
