// Route-level code splitting: each page is its own chunk, fetched when its route is first shown,
// so a visitor of the login page does not download the dashboards, calendars or upload forms.
import { lazy, type ComponentType } from 'react';
import type { LoginPageProps } from '../features/auth/LoginPages';
import { pageChunksAdded, workspacePreload } from './pageChunks';

type PageModule = { default: ComponentType };

/**
 * A page whose code loads on its first render (React.lazy), or ahead of it with `preload()`. A page
 * loaded ahead renders in the same pass as the rest: without that, React commits the spinner,
 * then renders and mounts the page once more when its chunk is in (main.tsx loads the first page
 * of a visit ahead when it is a public one).
 */
export function lazyPage(load: () => Promise<PageModule>) {
  let loading: Promise<PageModule> | undefined;
  let loaded: PageModule | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module;
      return module;
    }));
  // React.lazy calls `then` on what it is given, and a thenable that answers at once lets it
  // render without suspending; a Promise always answers later, so it would suspend.
  const Page = lazy(() =>
    loaded
      ? ({
          then: (resolve: (module: PageModule) => void) => resolve(loaded!),
        } as unknown as Promise<PageModule>)
      : preload(),
  );
  return Object.assign(Page, { preload });
}

export type LazyPage = ReturnType<typeof lazyPage>;

/**
 * A signed-in workspace page: it brings the date and modal providers along. When the visit starts
 * on it, its code is asked for once the HTML's links to its chunks are in (pageChunks.ts).
 */
function workspacePage(load: () => Promise<PageModule>) {
  return lazyPage(async () => {
    await pageChunksAdded();
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
  () => import('../pages/hospital-dashboard/HospitalDashboardPage'),
);
export const PatientDashboardPage = workspacePage(
  () => import('../pages/patient-dashboard/PatientDashboardPage'),
);
export const FamilyDashboardPage = workspacePage(
  () => import('../pages/family-dashboard/FamilyDashboardPage'),
);
export const ApplicationsPage = workspacePage(() => import('../features/admin/ApplicationsPage'));
export const UsersPage = workspacePage(() => import('../features/admin/UsersPage'));
export const ProfilePage = workspacePage(() => import('../features/profile/ProfilePage'));
export const VerifyPage = lazyPage(() => import('../features/ledger/VerifyPage'));
export const SignupPage = lazyPage(() => import('../features/auth/SignupPage'));
/** A sign-in page, handed what downloads its workspace's code while the password is checked. */
function withWorkspacePreload(Page: ComponentType<LoginPageProps>): PageModule {
  return { default: () => <Page preload={workspacePreload} /> };
}

/** One of the sign-in pages, which share one chunk. */
const loginPage = (name: keyof typeof import('../features/auth/LoginPages')) =>
  lazyPage(async () => withWorkspacePreload((await import('../features/auth/LoginPages'))[name]));
export const HospitalLoginPage = loginPage('HospitalLoginPage');
export const PatientLoginPage = loginPage('PatientLoginPage');
export const AdminLoginPage = loginPage('AdminLoginPage');
export const FamilyLoginPage = loginPage('FamilyLoginPage');
export const ProviderApplyPage = lazyPage(() => import('../features/providers/ProviderApplyPage'));
export const ProviderRegisterPage = lazyPage(() => import('../features/providers/ProviderRegisterPage'));
export const ResetPasswordPage = lazyPage(() => import('../features/password-reset/ResetPasswordPage'));
export const SignInLinkPage = lazyPage(() => import('../features/auth/SignInLinkPage'));
export const JoinStaffPage = lazyPage(() => import('../features/staff/JoinStaffPage'));
export const SharedRecordPage = lazyPage(() => import('../features/shares/SharedRecordPage'));

/**
 * The signed-out pages, by path: App.tsx routes them, and main.tsx loads the one of the visit's first
 * path before rendering. The paths are those of ROUTE_MODULES (routeModules.ts), whose HTML names
 * the page's chunks, so that load is already under way when the entry runs.
 */
export const PUBLIC_PAGES: Readonly<Record<string, LazyPage>> = {
  '/hospital-login': HospitalLoginPage,
  '/patient-login': PatientLoginPage,
  '/medledger-login': AdminLoginPage,
  '/family-login': FamilyLoginPage,
  '/signup': SignupPage,
  '/provider-apply': ProviderApplyPage,
  '/provider-register': ProviderRegisterPage,
  '/reset-password': ResetPasswordPage,
  '/sign-in-link': SignInLinkPage,
  '/join-staff': JoinStaffPage,
  '/verify': VerifyPage,
};
