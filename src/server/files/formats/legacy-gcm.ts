// The old attachment format ("gcm"), kept in this one corner until no row uses it: one AES-256-GCM
// stream over the whole file (nonce in the row's `iv`, tag in `authTag`, the storage key as
// associated data), whose tag is checked only at its end. Files written before the chunked format
// are still read; `npm run ledger -- migrate-files` reseals them as "stream1" (files/sealed-store.ts
// `reseal`), after which this module, the format column's 'gcm' and their tests can go.
//
// Such a file names no key. It was written before key rotation existed, so with a single key held
// that key opens it; with previous keys configured, each key is tried over the whole file (its
// tag checked) before the file is streamed with the first that authenticates it.
import crypto from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileKeyring } from '../keys.js';
import type { StoredFileRef } from '../store.js';

/** Whether `err` is a "gcm" file's failed tag check. */
export function isLegacyAuthFailure(err: unknown): boolean {
  return err instanceof Error && /unable to authenticate data/i.test(err.message);
}

function decipherFor(key: Buffer, meta: StoredFileRef) {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(meta.iv, 'hex'));
  decipher.setAAD(Buffer.from(meta.storageKey));
  decipher.setAuthTag(Buffer.from(meta.authTag, 'hex'));
  return decipher;
}

/** The key of the keyring that authenticates the whole file (one pass per key tried). */
async function keyOf(keyring: FileKeyring, meta: StoredFileRef, readStored: () => Readable) {
  if (keyring.all.length === 1) return keyring.all[0];
  for (const key of keyring.all) {
    try {
      const decipher = decipherFor(key, meta);
      decipher.resume();
      await pipeline(readStored(), decipher);
      return key;
    } catch (err) {
      if (!isLegacyAuthFailure(err)) throw err;
    }
  }
  throw new Error('Unsupported state or unable to authenticate data');
}

/** The plaintext of a "gcm" file; the stream errors at its end when the tag check fails. */
export function openLegacy(keyring: FileKeyring, meta: StoredFileRef, readStored: () => Readable): Readable {
  const out = new PassThrough();
  keyOf(keyring, meta, readStored).then(
    (key) => {
      const decrypt = decipherFor(key, meta);
      const stored = readStored();
      stored.on('error', (err) => decrypt.destroy(err));
      decrypt.on('error', (err) => out.destroy(err));
      // A reader that stops early (a client gone) closes the stored stream too.
      out.on('close', () => stored.destroy());
      stored.pipe(decrypt).pipe(out);
    },
    (err: Error) => out.destroy(err),
  );
  return out;
}

/** The plaintext of a whole "gcm" file held in memory, given to `onPlain`; throws when it fails. */
export function openLegacyWhole(
  keyring: FileKeyring,
  meta: StoredFileRef,
  bytes: Buffer,
  onPlain: (b: Buffer) => void,
) {
  let failure: unknown;
  for (const key of keyring.all) {
    try {
      const decipher = decipherFor(key, meta);
      const plain = decipher.update(bytes);
      decipher.final();
      onPlain(plain);
      return;
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}
