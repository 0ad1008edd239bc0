// Route-level code splitting: each page is its own chunk, fetched when its route is first shown,
// so a visitor of the login page does not download the dashboards, calendars or upload forms.
import { lazy, type ComponentType } from 'react';

type PageModule = { default: ComponentType };

/** A signed-in workspace page: it brings the date and modal providers along. */
function workspacePage(load: () => Promise<PageModule>) {
  return lazy(async () => {
    const [{ default: Page }, { WorkspaceProviders }] = await Promise.all([
      load(),
      import('../components/WorkspaceProviders'),
    ]);
    return {
      default: function WorkspacePage() {
        return (
          <WorkspaceProviders>
            <Page />
          </WorkspaceProviders>
        );
      },
    };
  });
}

export const HospitalDashboardPage = workspacePage(
  () => import('./hospital-dashboard/HospitalDashboardPage'),
);
export const PatientDashboardPage = workspacePage(() => import('./patient-dashboard/PatientDashboardPage'));
export const FamilyDashboardPage = workspacePage(() => import('./family-dashboard/FamilyDashboardPage'));
export const ApplicationsPage = workspacePage(() => import('../features/admin/ApplicationsPage'));
export const UsersPage = workspacePage(() => import('../features/admin/UsersPage'));
export const ProfilePage = workspacePage(() => import('../features/profile/ProfilePage'));
export const VerifyPage = lazy(() => import('../features/ledger/VerifyPage'));
export const SignupPage = lazy(() => import('../features/auth/SignupPage'));
/** One of the sign-in pages, which share one chunk. */
const loginPage = (name: keyof typeof import('../features/auth/LoginPages')) =>
  lazy(async () => ({ default: (await import('../features/auth/LoginPages'))[name] }));
export const HospitalLoginPage = loginPage('HospitalLoginPage');
export const PatientLoginPage = loginPage('PatientLoginPage');
export const AdminLoginPage = loginPage('AdminLoginPage');
export const FamilyLoginPage = loginPage('FamilyLoginPage');
export const ProviderApplyPage = lazy(() => import('../features/providers/ProviderApplyPage'));
export const ProviderRegisterPage = lazy(() => import('../features/providers/ProviderRegisterPage'));
export const ResetPasswordPage = lazy(() => import('../features/password-reset/ResetPasswordPage'));
export const SharedRecordPage = lazy(() => import('../features/shares/SharedRecordPage'));
