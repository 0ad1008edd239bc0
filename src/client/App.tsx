// The route table of spec section 2, with each screen's guard and redirect rules.
import { Route, Routes } from 'react-router';
import { useAuth } from './auth/context';
import { LoadingScreen } from './components/LoadingScreen';
import { RequireRole } from './components/RequireRole';
import ApplicationsPage from './features/admin/ApplicationsPage';
import AdminLoginPage from './features/auth/AdminLoginPage';
import HospitalLoginPage from './features/auth/HospitalLoginPage';
import LoginOptionsPage from './features/auth/LoginOptionsPage';
import PatientLoginPage from './features/auth/PatientLoginPage';
import SignupPage from './features/auth/SignupPage';
import HospitalDashboardPage from './pages/hospital-dashboard/HospitalDashboardPage';
import VerifyPage from './features/ledger/VerifyPage';
import NotFoundPage from './features/not-found/NotFoundPage';
import ResetPasswordPage from './features/password-reset/ResetPasswordPage';
import PatientDashboardPage from './pages/patient-dashboard/PatientDashboardPage';
import ProfilePage from './features/profile/ProfilePage';
import ProviderApplyPage from './features/providers/ProviderApplyPage';
import ProviderRegisterPage from './features/providers/ProviderRegisterPage';

/** "/": login options when signed out, else the page of the user's role. */
function HomeRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <LoginOptionsPage />;
  if (user.role === 'hospital') return <HospitalDashboardPage />;
  if (user.role === 'medledger_admin') return <ApplicationsPage />;
  return <PatientDashboardPage />;
}

export function App() {
  return (
    <Routes>
      <Route path="/" element={<HomeRoute />} />
      <Route path="/hospital-login" element={<HospitalLoginPage />} />
      <Route path="/patient-login" element={<PatientLoginPage />} />
      <Route path="/medledger-login" element={<AdminLoginPage />} />
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/provider-apply" element={<ProviderApplyPage />} />
      <Route path="/provider-register" element={<ProviderRegisterPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/verify" element={<VerifyPage />} />
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
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
