// The hospital dashboard's tabs (docs/spec.md#hospital-dashboard), apart from the page so that the
// page title can name the open tab without loading the dashboard.
import {
  IconCalendarEvent,
  IconCloudUpload,
  IconSettings,
  IconShieldCheck,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

export const TABS = [
  { id: 'patients', label: 'Patients', icon: IconUsers },
  { id: 'upload', label: 'Upload Records', icon: IconCloudUpload },
  { id: 'appointments', label: 'Appointments', icon: IconCalendarEvent },
  { id: 'audit', label: 'Audit Trail', icon: IconShieldCheck },
  { id: 'settings', label: 'Settings', icon: IconSettings },
] as const satisfies readonly { id: string; label: string; icon: Icon }[];
export type TabId = (typeof TABS)[number]['id'];

/** The tab named in ?tab=, or Patients. */
export function tabFromParam(value: string | null): TabId {
  return TABS.find((tab) => tab.id === value)?.id ?? 'patients';
}
