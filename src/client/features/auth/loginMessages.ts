// The toasts of the three login screens (docs/spec.md#roles and #messages, docs/decisions.md#names).
import type { Role } from '../../../shared/constants';
import { errorMessage, errorStatus } from '../../api/request';

export type LoginPortal = 'hospital' | 'patient' | 'admin';

export interface Toast {
  title?: string;
  message: string;
}

export const PORTAL_ROLE: Record<LoginPortal, Role> = {
  hospital: 'hospital',
  patient: 'patient',
  admin: 'medledger_admin',
};

export const SUCCESS_PATH: Record<LoginPortal, string> = {
  hospital: '/hospital-dashboard',
  patient: '/patient-dashboard',
  admin: '/medledger/applications',
};

export function accessDeniedToast(portal: LoginPortal): Toast {
  switch (portal) {
    case 'hospital':
      return { title: 'Access Denied', message: 'This login is for healthcare providers only.' };
    case 'patient':
      return { title: 'Access Denied', message: 'This login is for patients only.' };
    case 'admin':
      return { message: 'Access Denied: This login is for MedLedger team administrators only.' };
  }
}

const INVALID = 'Invalid credentials. Please try again.';

/** Any failed login reads "Invalid credentials"; a throttled one (429) shows the server's reason. */
export function loginFailedToast(portal: LoginPortal, error: unknown): Toast {
  const message = errorStatus(error) === 429 ? errorMessage(error, INVALID) : INVALID;
  return portal === 'admin' ? { message: `Login Failed: ${message}` } : { title: 'Login Failed', message };
}
