// The browser tab's title for every route: "<screen> · <hospital> · MedLedger", so that several
// open tabs (and screen-reader users arriving on a page) can tell the screens apart.
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../auth/context';
import { TABS, tabFromParam } from '../pages/hospital-dashboard/tabs';
import type { PublicUser } from '../../shared/users';

const PRODUCT = 'MedLedger';

const PUBLIC_TITLES: Record<string, string> = {
  '/hospital-login': 'Healthcare Provider Login',
  '/patient-login': 'Patient Login',
  '/medledger-login': 'Administrator Login',
  '/family-login': 'Family Login',
  '/signup': 'Create an Account',
  '/provider-apply': 'Apply as a Healthcare Provider',
  '/provider-register': 'Create Your Provider Account',
  '/reset-password': 'Reset Password',
  '/join-staff': 'Join Your Hospital',
  '/verify': 'Verify a Record',
};

function screenTitle(pathname: string, search: string, user: PublicUser | null): string[] {
  if (PUBLIC_TITLES[pathname]) return [PUBLIC_TITLES[pathname]];
  const role = user?.role;
  const hospital = role === 'hospital' && user?.hospitalName ? [user.hospitalName] : [];
  const dashboard = pathname === '/' ? role : undefined;
  if (pathname === '/hospital-dashboard' || dashboard === 'hospital') {
    const tab = tabFromParam(new URLSearchParams(search).get('tab'), user?.staffRole);
    return [TABS.find((t) => t.id === tab)?.label ?? 'Patients', ...hospital];
  }
  if (pathname === '/patient-dashboard' || dashboard === 'patient') return ['My Health Records'];
  if (pathname === '/medledger/applications' || dashboard === 'medledger_admin')
    return ['Provider Applications'];
  if (pathname === '/family-dashboard' || dashboard === 'family') return ['Family Records'];
  if (pathname === '/medledger/users') return ['Users'];
  if (pathname === '/profile/edit') return ['Profile', ...hospital];
  if (pathname === '/') return ['Sign In'];
  if (pathname.startsWith('/shared/')) return ['Shared Medical Record'];
  return ['Page Not Found'];
}

export function pageTitle(pathname: string, search: string, user: PublicUser | null): string {
  return [...screenTitle(pathname, search, user), PRODUCT].join(' · ');
}

export function DocumentTitle() {
  const { pathname, search } = useLocation();
  const { user } = useAuth();
  useEffect(() => {
    document.title = pageTitle(pathname, search, user);
  }, [pathname, search, user]);
  return null;
}
