// /hospital-dashboard (docs/spec.md#hospital-dashboard): a sidebar with up to six tabs (Patients by
// default; which ones follows the staff role, tabs.ts), a slide-in menu on small screens, and the trial banner. The route guard lets only role
// hospital in.
import { Center, Loader, NavLink, Stack, Title, VisuallyHidden } from '@mantine/core';
import { lazy, useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import { AppLayout } from '../../components/layout/AppLayout';
import { LoadFailureBoundary } from '../../components/LoadFailureBoundary';
import { useMobileNav } from '../../components/layout/MobileNav';
import { useBillingStatus } from '../../features/billing/api';
import { TrialBanner } from '../../features/billing/TrialBanner';
import { VerificationNotice } from '../../features/providers/VerificationNotice';
import { heldByStaffTwoFactor, StaffTwoFactorNotice } from '../../features/staff/StaffTwoFactorNotice';
import { usePrefetchFirstPatientsPage } from '../../features/patients/api';
import { PatientsTab } from '../../features/patients/PatientsTab';
import { useAuth } from '../../auth/context';
import { tabFromParam, tabsFor, type TabId } from './tabs';

// Patients, the tab a visit opens on, comes with the page; the others (the dropzone, the calendar,
// the audit filters) load when first chosen.
const UploadRecordsTab = lazy(async () => ({
  default: (await import('../../features/records/UploadRecordsTab')).UploadRecordsTab,
}));
const AppointmentsTab = lazy(async () => ({
  default: (await import('../../features/appointments/AppointmentsTab')).AppointmentsTab,
}));
const AuditTrailTab = lazy(async () => ({
  default: (await import('../../features/audit/AuditTrailTab')).AuditTrailTab,
}));
const StaffTab = lazy(async () => ({
  default: (await import('../../features/staff/StaffTab')).StaffTab,
}));
const SettingsTab = lazy(async () => ({
  default: (await import('../../features/hospital/SettingsTab')).SettingsTab,
}));

/** Reads the Patients tab's first list while the billing status is still on its way. */
function PrefetchPatients() {
  usePrefetchFirstPatientsPage();
  return null;
}

/** The spinner in the tab's place, while the billing status or a tab's code loads. */
function TabAreaLoading({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}

function Sidebar({ active, onSelect }: { active: TabId; onSelect: (tab: TabId) => void }) {
  const { close } = useMobileNav();
  const { user } = useAuth();
  return (
    <Stack gap={4} component="nav" aria-label="Hospital dashboard">
      {tabsFor(user?.staffRole).map((tab) => (
        <NavLink
          key={tab.id}
          label={tab.label}
          leftSection={<tab.icon size={18} aria-hidden />}
          active={tab.id === active}
          aria-current={tab.id === active ? 'page' : undefined}
          component="button"
          onClick={() => {
            onSelect(tab.id);
            close();
          }}
        />
      ))}
    </Stack>
  );
}

export default function HospitalDashboardPage() {
  const [params, setParams] = useSearchParams();
  const { user } = useAuth();
  // A tab this staff member is not shown (a link from someone else's screen) opens Patients.
  const active = tabFromParam(params.get('tab'), user?.staffRole);
  const select = (tab: TabId) => setParams(tab === 'patients' ? {} : { tab }, { replace: false });
  const billing = useBillingStatus();
  // The status's answer brings in the whole tab (the banner, the filters, a page of rows). A query's
  // answer renders at once, in one task (TanStack Query reads through useSyncExternalStore); the
  // deferred value renders the tab in a second pass that React splits into slices, so the page
  // answers input while it builds. On a 4x slower CPU an uncached load's longest task went from
  // 335-445 ms to 140-284 ms, its blocking time from 530 to 310 ms (bench:web's throttled loads).
  const statusPending = useDeferredValue(billing.isPending);

  return (
    <AppLayout navbar={<Sidebar active={active} onSelect={select} />}>
      <VisuallyHidden>
        <Title order={1}>Hospital Dashboard</Title>
      </VisuallyHidden>
      {/* The trial banner and the tab appear together: a banner arriving later would push the
          whole tab down (a layout shift of most of the screen). The status is one small read. */}
      {statusPending ? (
        <>
          <TabAreaLoading label="Loading the dashboard" />
          {active === 'patients' && <PrefetchPatients />}
        </>
      ) : (
        <>
          <TrialBanner />
          <VerificationNotice />
          {/* One boundary per tab: a tab chosen for the first time shows the spinner, not the last one. */}
          {heldByStaffTwoFactor(user) ? (
            <StaffTwoFactorNotice />
          ) : (
            <LoadFailureBoundary key={active} loading={<TabAreaLoading label="Loading the tab" />}>
              {active === 'patients' && <PatientsTab />}
              {active === 'upload' && <UploadRecordsTab />}
              {active === 'appointments' && <AppointmentsTab />}
              {active === 'audit' && <AuditTrailTab />}
              {active === 'staff' && <StaffTab />}
              {active === 'settings' && <SettingsTab />}
            </LoadFailureBoundary>
          )}
        </>
      )}
    </AppLayout>
  );
}
