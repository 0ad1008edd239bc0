// Signup rules of docs/spec.md#validation: passwords must match, only the length is enforced on submit;
// MRN and activation code for patients, hospital name for hospitals. Query parameters email, role,
// mrn and code (the e-mailed activation link) prefill.
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants';
import type { RegisterInput } from '../../../shared/auth';
import type { Toast } from './loginMessages';
import { localTimeZone } from '../../../shared/time-zone';

/** `family` only through an invitation link (`?invite=`), never picked on the form. */
export type SignupRole = 'patient' | 'hospital' | 'family';

export interface SignupValues {
  role: SignupRole;
  mrn: string;
  activationCode: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  hospitalName: string;
  /** The family invitation token of the link (`?invite=`). */
  inviteToken: string;
}

/** role from the query string when it is one a visitor may pick; else null (radios shown). */
export function roleFromQuery(value: string | null): 'patient' | 'hospital' | null {
  return value === 'patient' || value === 'hospital' ? value : null;
}

/** The toast that stops a submit, or null when it may go to the server. */
export function signupProblem(values: Pick<SignupValues, 'password' | 'confirmPassword'>): Toast | null {
  if (values.password !== values.confirmPassword) {
    return { title: 'Password Mismatch', message: 'Passwords do not match. Please try again.' };
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    return { title: 'Weak Password', message: 'Password must be at least 8 characters long.' };
  }
  return null;
}

/** The registration payload: mrn only for patients, hospitalName only for hospitals. */
export function registerPayload(values: SignupValues): RegisterInput {
  return {
    email: values.email.trim(),
    password: values.password,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    role: values.role,
    ...(values.role === 'patient'
      ? { mrn: values.mrn.trim().toUpperCase(), activationCode: values.activationCode.trim() }
      : {}),
    // A hospital starts in the zone of the browser it signed up from; Settings changes it.
    ...(values.role === 'hospital'
      ? { hospitalName: values.hospitalName.trim(), timeZone: localTimeZone() }
      : {}),
    ...(values.role === 'family' ? { inviteToken: values.inviteToken.trim() } : {}),
  };
}

export const LOGIN_PATH_FOR: Record<SignupRole, string> = {
  hospital: '/hospital-login',
  patient: '/patient-login',
  family: '/family-login',
};
