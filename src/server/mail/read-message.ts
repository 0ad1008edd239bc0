// Reads links back out of a raw message (an .eml from the outbox or what an SMTP server
// received). Used by tests and the browser journey to follow e-mailed links.
import fs from 'node:fs';
import path from 'node:path';

/** Undoes quoted-printable soft line breaks and =XX escapes. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every distinct http(s) link in the message's text parts. */
export function linksIn(raw: string): string[] {
  const text = decodeQuotedPrintable(raw);
  const found = text.match(/https?:\/\/[^\s"<>]+/g) ?? [];
  return [...new Set(found.map((l) => l.replace(/&amp;/g, '&')))];
}

/** The first link whose path is `pathname` (for example /provider-register). */
export function linkTo(raw: string, pathname: string): string | undefined {
  return linksIn(raw).find((l) => {
    try {
      return new URL(l).pathname === pathname;
    } catch {
      return false;
    }
  });
}

/** The raw .eml files of an outbox folder, oldest first (names start with an ISO time stamp). */
export function outboxMessages(outboxDir: string): string[] {
  if (!fs.existsSync(outboxDir)) return [];
  return fs
    .readdirSync(outboxDir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8'));
}

/** A header's value (folded lines joined), e.g. the Subject. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The decoded body of the first MIME part whose Content-Type starts with `contentType`. */
export function partText(raw: string, contentType: string): string | undefined {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]);
  for (const boundary of boundaries) {
    for (const part of raw.split(`--${boundary}`)) {
      const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const headers = head.replace(/\r?\n[ \t]+/g, ' ');
      if (!new RegExp(`^content-type:\\s*${contentType}`, 'im').test(headers)) continue;
      const body = rest.join('\n\n');
      const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
      return body;
    }
  }
  return undefined;
}
