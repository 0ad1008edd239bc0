// The signup screen's Medical Record Number field (docs/spec.md#screens-and-routes): upper-cased
// while typing.

/** What the field shows after a keystroke: upper-cased, surrounding spaces kept out. */
export function normalizeMrnInput(value: string): string {
  return value.toUpperCase().replace(/\s+/g, '');
}

/** Placeholder of the form MRN + year + digits, e.g. "MRN2026123456". */
export function mrnPlaceholder(now: Date = new Date()): string {
  return `MRN${now.getFullYear()}123456`;
}
