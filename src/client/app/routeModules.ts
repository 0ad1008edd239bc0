// The page module (lazyPages.tsx) each path of the app shows first, by their path under
// src/client. The build (vite.config.ts, routePages) writes a copy of index.html per path that names
// their chunks as <link rel="modulepreload">, and the server sends that copy for the path: the
// browser fetches the page's code alongside the entry instead of after it has run, and Vite's
// preload helper finds the links in place instead of adding them one by one. The signed-in
// workspaces' copies name their chunks inertly instead (WORKSPACE_MODULES below); paths with a
// parameter (/shared/:token) and unknown paths get the plain index.html. routeModules.test.ts
// checks both tables against lazyPages.tsx and App.tsx.

const LOGIN_PAGES = 'features/auth/LoginPages.tsx';

export const ROUTE_MODULES: Readonly<Record<string, string>> = {
  '/hospital-login': LOGIN_PAGES,
  '/patient-login': LOGIN_PAGES,
  '/medledger-login': LOGIN_PAGES,
  '/family-login': LOGIN_PAGES,
  '/signup': 'features/auth/SignupPage.tsx',
  '/provider-apply': 'features/providers/ProviderApplyPage.tsx',
  '/provider-register': 'features/providers/ProviderRegisterPage.tsx',
  '/reset-password': 'features/password-reset/ResetPasswordPage.tsx',
  '/sign-in-link': 'features/auth/SignInLinkPage.tsx',
  '/join-staff': 'features/staff/JoinStaffPage.tsx',
  '/verify': 'features/ledger/VerifyPage.tsx',
};

/**
 * The signed-in workspaces' paths and their page module (lazyPages.tsx loads each with
 * WorkspaceProviders). Their copy of index.html carries the chunks of the page and of
 * WorkspaceProviders inert, in a <template id="page-chunks">: as active links they would compete
 * with the first paint (preloading a dashboard's forty chunks in its HTML delayed the spinner shown
 * while the session is checked enough to cost it 11-14 Lighthouse points), and Vite's preload
 * helper, which adds them otherwise, adds all of them in one task while React renders (100-250 ms
 * on a 4x slower CPU). The entry adds them a few per task (pageChunks.ts), and the helper finds
 * them in place.
 */
export const WORKSPACE_MODULES: Readonly<Record<string, string>> = {
  '/hospital-dashboard': 'pages/hospital-dashboard/HospitalDashboardPage.tsx',
  '/patient-dashboard': 'pages/patient-dashboard/PatientDashboardPage.tsx',
  '/family-dashboard': 'pages/family-dashboard/FamilyDashboardPage.tsx',
  '/profile/edit': 'features/profile/ProfilePage.tsx',
  '/medledger/applications': 'features/admin/ApplicationsPage.tsx',
  '/medledger/users': 'features/admin/UsersPage.tsx',
};

/**
 * The build's list of each workspace's chunks (the same as in its HTML's template), in the client's
 * folder: a sign-in page adds its workspace's while the password is checked (pageChunks.ts).
 */
export const WORKSPACE_CHUNKS_FILE = 'workspace-chunks.json';

/** What lazyPages.tsx loads with every workspace page. */
export const WORKSPACE_PROVIDERS_MODULE = 'components/WorkspaceProviders.tsx';
