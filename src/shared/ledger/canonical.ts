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
  return encode(value, '$');
}

function encode(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path}: numbers must be finite`);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`${path}: ${typeof value} cannot be encoded`);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${path}: invalid date`);
    return JSON.stringify(value.toISOString());
  }
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => encode(item === undefined ? null : item, `${path}[${i}]`)).join(',')}]`;
  }
  if (!isPlainRecord(value)) throw new TypeError(`${path}: only plain objects can be encoded`);
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    if (value[key] === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${encode(value[key], `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}
