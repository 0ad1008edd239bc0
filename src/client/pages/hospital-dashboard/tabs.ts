// The hospital dashboard's tabs (docs/spec.md#hospital-dashboard), apart from the page so that the
// page title can name the open tab without loading the dashboard. Which tabs a staff member sees
// follows the routes' staff roles (docs/decisions.md#staff-accounts): the server answers 403 to the
// others, so they are not offered.
import {
  IconCalendarEvent,
  IconCloudUpload,
  IconId,
  IconSettings,
  IconShieldCheck,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { StaffRole } from '../../../shared/constants';

interface Tab {
  id: string;
  label: string;
  icon: Icon;
  /** Staff roles the tab is left out for (their calls are refused). */
  hiddenFor?: readonly StaffRole[];
  /** Shown to hospital admins only. */
  adminsOnly?: boolean;
}

export const TABS = [
  { id: 'patients', label: 'Patients', icon: IconUsers },
  { id: 'upload', label: 'Upload Records', icon: IconCloudUpload, hiddenFor: ['front_desk'] },
  { id: 'appointments', label: 'Appointments', icon: IconCalendarEvent },
  { id: 'audit', label: 'Audit Trail', icon: IconShieldCheck, hiddenFor: ['front_desk', 'clinician'] },
  { id: 'staff', label: 'Staff', icon: IconId, adminsOnly: true },
  { id: 'settings', label: 'Settings', icon: IconSettings },
] as const satisfies readonly Tab[];
export type TabId = (typeof TABS)[number]['id'];

/** Whether a staff member of this role sees the tab (undefined: an account from before staff roles). */
export function tabShownTo(tab: Tab, staffRole: StaffRole | null | undefined): boolean {
  if (tab.adminsOnly) return staffRole === 'hospital_admin';
  return !staffRole || !tab.hiddenFor?.includes(staffRole);
}

/** The tabs this staff member sees, in order. */
export const tabsFor = (staffRole: StaffRole | null | undefined) =>
  TABS.filter((tab) => tabShownTo(tab, staffRole));

/** The tab named in ?tab= when this staff member sees it, or Patients. */
export function tabFromParam(value: string | null, staffRole?: StaffRole | null): TabId {
  return tabsFor(staffRole).find((tab) => tab.id === value)?.id ?? 'patients';
}
