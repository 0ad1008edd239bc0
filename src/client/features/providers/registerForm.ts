// Provider registration rules (docs/spec.md#validation): first and last name required, passwords match,
// at least 8 characters. The toast that stops a submit, or null.
import { MESSAGES } from '../../../shared/auth';
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants';

export interface ProviderRegisterValues {
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

export interface Toast {
  title: string;
  message: string;
}

export function registerProblem(values: ProviderRegisterValues): Toast | null {
  if (!values.firstName.trim()) return { title: 'Missing Information', message: MESSAGES.firstName };
  if (!values.lastName.trim()) return { title: 'Missing Information', message: MESSAGES.lastName };
  if (values.password !== values.confirmPassword) {
    return { title: 'Password Mismatch', message: 'Passwords do not match. Please try again.' };
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    return { title: 'Weak Password', message: 'Password must be at least 8 characters long.' };
  }
  return null;
}
