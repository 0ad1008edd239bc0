// The time zone screens show times in (docs/decisions.md#time): a hospital's staff see their
// hospital's zone wherever their browser is; everyone else sees their own.
import { localTimeZone } from '../shared/time';
import { useAuth } from './auth/context';

export function useDisplayZone(): string {
  const { user } = useAuth();
  return user?.timeZone ?? localTimeZone();
}
