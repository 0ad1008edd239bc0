// Time zones by name, without the date library: the sign-up pages need the visitor's zone and no
// more, and importing it from time.ts brought that whole module (and @date-fns/tz) to them, 2.6 KB
// compressed on /signup. time.ts re-exports these, so every other caller keeps one import.

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TIME_ZONE_MESSAGE = 'Please choose a valid time zone';

/** The zone of whoever runs this: the browser's, or the server's (UTC in practice). */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
