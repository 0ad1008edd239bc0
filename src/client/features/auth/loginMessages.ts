// The toasts of the three login screens (docs/spec.md#roles and #messages, docs/decisions.md#names).
import { PORTAL_DENIED, PORTAL_ROLE, type LoginPortal } from '../../../shared/constants';
import { errorMessage, errorStatus } from '../../api/request';

export { PORTAL_ROLE, type LoginPortal };

export interface Toast {
  title?: string;
  message: string;
}

export const SUCCESS_PATH: Record<LoginPortal, string> = {
  hospital: '/hospital-dashboard',
  patient: '/patient-dashboard',
  admin: '/medledger/applications',
  family: '/family-dashboard',
};

export function accessDeniedToast(portal: LoginPortal): Toast {
  switch (portal) {
    case 'hospital':
      return { title: 'Access Denied', message: 'This login is for healthcare providers only.' };
    case 'patient':
      return { title: 'Access Denied', message: 'This login is for patients only.' };
    case 'admin':
      return { message: 'Access Denied: This login is for MedLedger team administrators only.' };
    case 'family':
      return { title: 'Access Denied', message: 'This login is for family members a patient has invited.' };
  }
}

const INVALID = 'Invalid credentials. Please try again.';

/**
 * The server refused the right password because this is another role's sign-in page (nobody was
 * signed in, and the account's last sign-in stays as it was).
 */
export const isWrongPortal = (portal: LoginPortal, error: unknown) =>
  errorStatus(error) === 403 && errorMessage(error, '') === PORTAL_DENIED[portal];

/**
 * Any failed login reads "Invalid credentials"; a throttled one (429) or a refused one (403: a
 * suspended account) shows the server's reason.
 */
export function loginFailedToast(portal: LoginPortal, error: unknown): Toast {
  const status = errorStatus(error);
  const message = status === 429 || status === 403 ? errorMessage(error, INVALID) : INVALID;
  return portal === 'admin' ? { message: `Login Failed: ${message}` } : { title: 'Login Failed', message };
}
