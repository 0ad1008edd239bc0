// The provider application form (docs/spec.md#other-pages and #validation): its values, the field
// messages (from the same Zod schema the server uses) and the failure text of the "Application
// Failed" toast.
import { providerApplicationSchema } from '../../../shared/providers';

export interface ApplicationValues {
  hospitalName: string;
  website: string;
  address: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  npiNumber: string;
  licenseNumber: string;
}

export const EMPTY_APPLICATION: ApplicationValues = {
  hospitalName: '',
  website: '',
  address: '',
  contactName: '',
  contactEmail: '',
  contactPhone: '',
  npiNumber: '',
  licenseNumber: '',
};

export type ApplicationErrors = Partial<Record<keyof ApplicationValues, string>>;

/** The first message per field, exactly as the server would answer it; empty when valid. */
export function applicationErrors(values: ApplicationValues): ApplicationErrors {
  const result = providerApplicationSchema.safeParse(values);
  if (result.success) return {};
  const errors: ApplicationErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ApplicationValues | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export const APPLICATION_FAILED_FALLBACK = 'Failed to submit application. Please try again.';

/** A message from a JSON body in the error text, else the error text, else the fallback. */
export function applicationFailureMessage(error: unknown): string {
  if (!(error instanceof Error) || !error.message.trim()) return APPLICATION_FAILED_FALLBACK;
  const text = error.message;
  const start = text.indexOf('{');
  if (start >= 0) {
    try {
      const parsed: unknown = JSON.parse(text.slice(start));
      if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
        return parsed.message;
      }
    } catch {
      // Not JSON: the text itself is the message.
    }
  }
  return text;
}
