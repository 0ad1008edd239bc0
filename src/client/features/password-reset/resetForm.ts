// New-password rules of the reset page: the same as signup (match, at least 8 characters).
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants';

export function resetProblem(
  password: string,
  confirmPassword: string,
): { title: string; message: string } | null {
  if (password !== confirmPassword) {
    return { title: 'Password Mismatch', message: 'Passwords do not match. Please try again.' };
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    return { title: 'Weak Password', message: 'Password must be at least 8 characters long.' };
  }
  return null;
}
