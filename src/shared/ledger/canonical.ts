// Canonical JSON: the exact text a ledger entry's hash is computed over. Object keys are sorted
// (by UTF-16 code units, as in RFC 8785), there is no whitespace, strings and numbers are written
// as JSON.stringify writes them, keys whose value is undefined are left out, and Dates become
// ISO-8601 UTC strings. The same value therefore always gives the same text, on any machine.

export type CanonicalValue =
  null | boolean | number | string | Date | CanonicalValue[] | { [key: string]: CanonicalValue | undefined };

/** Whether canonical JSON writes a value as an object: not an array, and a plain object's prototype. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function canonicalJson(value: unknown): string {
  return encode(value, []);
}

/** Where in the value an error is: `at` is the keys and indexes down to it, e.g. $.a[1].n. */
const pathOf = (at: readonly (string | number)[]) =>
  '$' + at.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');

// The path is kept as a stack and written only for an error: the audit encodes every field of
// every entry it opens, and building a path string for each value was a tenth of that work.
function encode(value: unknown, at: (string | number)[]): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${pathOf(at)}: numbers must be finite`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`${pathOf(at)}: ${typeof value} cannot be encoded`);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${pathOf(at)}: invalid date`);
    return JSON.stringify(value.toISOString());
  }
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      parts.push(encode(value[i] === undefined ? null : value[i], at));
      at.pop();
    }
    return `[${parts.join(',')}]`;
  }
  if (!isPlainRecord(value)) throw new TypeError(`${pathOf(at)}: only plain objects can be encoded`);
  for (const key of Object.keys(value).sort()) {
    if (value[key] === undefined) continue;
    at.push(key);
    parts.push(`${JSON.stringify(key)}:${encode(value[key], at)}`);
    at.pop();
  }
  return `{${parts.join(',')}}`;
}
