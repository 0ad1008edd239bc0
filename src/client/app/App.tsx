// The route table of docs/spec.md#screens-and-routes, with each screen's guard and redirect rules.
import { Route, Routes, useLocation } from 'react-router';
import { useAuth } from '../auth/context';
import { DocumentTitle } from './DocumentTitle';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { LoadingScreen } from '../components/LoadingScreen';
import { RequireRole } from '../components/RequireRole';
import LoginOptionsPage from '../features/auth/LoginOptionsPage';
import NotFoundPage from '../features/not-found/NotFoundPage';
import {
  ApplicationsPage,
  FamilyDashboardPage,
  HospitalDashboardPage,
  PatientDashboardPage,
  ProfilePage,
  PUBLIC_PAGES,
  SharedRecordPage,
  UsersPage,
} from './lazyPages';

/** "/": login options when signed out, else the page of the user's role. */
function HomeRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <LoginOptionsPage />;
  if (user.role === 'hospital') return <HospitalDashboardPage />;
  if (user.role === 'medledger_admin') return <ApplicationsPage />;
  if (user.role === 'family') return <FamilyDashboardPage />;
  return <PatientDashboardPage />;
}

export function App() {
  const { pathname } = useLocation();
  return (
    // A page's chunk loads on its first visit; the spinner covers the wait, and a chunk that cannot
    // be loaded gets an answer, not a blank page. One boundary per path, so the previous page never
    // stays on screen (and clickable) while the next one loads, and another path starts afresh.
    <LoadFailureBoundary key={pathname} loading={<LoadingScreen />}>
      <DocumentTitle />
      <Routes>
        <Route path="/" element={<HomeRoute />} />
        {/* The signed-out pages (/hospital-login, /signup, /verify...), from one table with main.tsx. */}
        {Object.entries(PUBLIC_PAGES).map(([path, Page]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="/shared/:token" element={<SharedRecordPage />} />
        <Route
          path="/hospital-dashboard"
          element={
            <RequireRole roles={['hospital']}>
              <HospitalDashboardPage />
            </RequireRole>
          }
        />
        <Route
          path="/patient-dashboard"
          element={
            <RequireRole roles={['patient']}>
              <PatientDashboardPage />
            </RequireRole>
          }
        />
        <Route
          path="/family-dashboard"
          element={
            <RequireRole roles={['family']} signedOutTo="/family-login">
              <FamilyDashboardPage />
            </RequireRole>
          }
        />
        <Route
          path="/profile/edit"
          element={
            // The spec sends signed-out visitors to /login, which does not exist; / is the login page.
            <RequireRole>
              <ProfilePage />
            </RequireRole>
          }
        />
        <Route
          path="/medledger/applications"
          element={
            <RequireRole roles={['medledger_admin']} signedOutTo="/medledger-login">
              <ApplicationsPage />
            </RequireRole>
          }
        />
        <Route
          path="/medledger/users"
          element={
            <RequireRole roles={['medledger_admin']} signedOutTo="/medledger-login">
              <UsersPage />
            </RequireRole>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </LoadFailureBoundary>
  );
}
