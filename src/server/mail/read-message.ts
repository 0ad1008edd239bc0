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
