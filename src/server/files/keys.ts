// The attachment keys. FILE_ENCRYPTION_KEY (or DATA_DIR/secrets/file.key) seals every new file;
// FILE_ENCRYPTION_PREVIOUS_KEYS (comma-separated) may still open files sealed before a rotation.
// A sealed file names the key it was sealed with by its id (`keyIdOf`, a fingerprint: the first 8
// bytes of a SHA-256 over the key, which tells nothing about the key), never by the key itself,
// so a reader takes that key or says which id it is missing.
//
// The keys derived for other purposes (two-factor secrets and recovery codes, activation codes)
// do not follow the file key: recovery and activation codes are stored only as HMACs and cannot
// be re-made under a new key. They are derived from ACCOUNT_SECRETS_KEY, which defaults to the
// file key; a rotation sets it to the key they have been derived from so far (docs/decisions.md,
// "Rotating the attachment key").
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Bytes of a key id in a sealed file's header. */
export const KEY_ID_SIZE = 8;

/** Where the keys come from (the configuration's FILE_ENCRYPTION_* and ACCOUNT_SECRETS_KEY). */
export interface FileKeySettings {
  /** FILE_ENCRYPTION_KEY (64 hex); without it, DATA_DIR/secrets/file.key (made once). */
  current?: string;
  /** FILE_ENCRYPTION_PREVIOUS_KEYS: keys that may still open older files. */
  previous?: readonly string[];
  /** ACCOUNT_SECRETS_KEY: the key other purposes are derived from; the current key when unset. */
  accountSecrets?: string;
}

/** A stored file names a key (by id) that none of the configured keys is. */
export class MissingKeyError extends Error {
  constructor(readonly keyId: string) {
    super(
      `The file is sealed with key id ${keyId}, which is neither FILE_ENCRYPTION_KEY nor one of ` +
        'FILE_ENCRYPTION_PREVIOUS_KEYS.',
    );
    this.name = 'MissingKeyError';
  }
}

/** A key's id: the first KEY_ID_SIZE bytes of SHA-256("medledger file key id" 0x00 key). */
export function keyIdOf(key: Buffer): Buffer {
  return crypto
    .createHash('sha256')
    .update('medledger file key id\0')
    .update(key)
    .digest()
    .subarray(0, KEY_ID_SIZE);
}

function parseKey(hex: string, name: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${name} must be 64 hex characters`);
  return Buffer.from(hex, 'hex');
}

/** FILE_ENCRYPTION_KEY, or a key made once and kept (mode 0600) in DATA_DIR/secrets/file.key. */
export function loadKey(dataDir: string, keyHex?: string): Buffer {
  if (keyHex) return parseKey(keyHex, 'FILE_ENCRYPTION_KEY');
  const keyFile = path.join(dataDir, 'secrets', 'file.key');
  if (fs.existsSync(keyFile)) return Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'hex');
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(keyFile, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}

/** The keys a store seals and opens with. */
export class FileKeyring {
  /** The key new files are sealed with, and its id. */
  readonly current: Buffer;
  readonly currentId: Buffer;
  /** Every key, the current one first (files sealed before key ids are tried with each in turn). */
  readonly all: readonly Buffer[];
  private readonly byId = new Map<string, Buffer>();
  private readonly accountSecrets: Buffer;

  constructor(current: Buffer, previous: readonly Buffer[] = [], accountSecrets: Buffer = current) {
    this.current = current;
    this.currentId = keyIdOf(current);
    this.all = [current, ...previous.filter((k) => !k.equals(current))];
    for (const key of this.all) this.byId.set(keyIdOf(key).toString('hex'), key);
    this.accountSecrets = accountSecrets;
  }

  /** The keyring of `settings` (the current key made once in DATA_DIR when none is given). */
  static load(dataDir: string, settings: FileKeySettings | string = {}): FileKeyring {
    const {
      current,
      previous = [],
      accountSecrets,
    } = typeof settings === 'string' ? { current: settings } : settings;
    const key = loadKey(dataDir, current);
    return new FileKeyring(
      key,
      previous.map((hex) => parseKey(hex, 'Each of FILE_ENCRYPTION_PREVIOUS_KEYS')),
      accountSecrets ? parseKey(accountSecrets, 'ACCOUNT_SECRETS_KEY') : key,
    );
  }

  get currentIdHex(): string {
    return this.currentId.toString('hex');
  }

  /** The ids of every key held, hex. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The key named by `id`, or a MissingKeyError naming it. */
  keyFor(id: Buffer): Buffer {
    const key = this.byId.get(id.toString('hex'));
    if (!key) throw new MissingKeyError(id.toString('hex'));
    return key;
  }

  /** A key for another purpose (e.g. TOTP secrets), derived from ACCOUNT_SECRETS_KEY with HKDF-SHA256. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(
      crypto.hkdfSync('sha256', this.accountSecrets, Buffer.alloc(0), `medledger:${purpose}`, 32),
    );
  }
}
