// The ledger's Ed25519 signing key and the log's name (docs/decisions.md#signed-checkpoints).
// The key is the 32-byte Ed25519 seed in hex: LEDGER_SIGNING_KEY, or else DATA_DIR/secrets/ledger.key,
// made once (0600) the first time the server starts. Every process serving the same ledger must
// use the same key, or witnesses would see checkpoints signed by a key they do not know.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  checkpointText,
  ed25519KeyId,
  formatSignedNote,
  formatVerifierKey,
  type Checkpoint,
  type NoteSignature,
} from '../../../shared/ledger/note.js';

/** PKCS #8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SEED_HEX = /^[0-9a-fA-F]{64}$/;

export interface LedgerSigner {
  /** The log's origin and key name, e.g. "records.example.org/medledger". */
  name: string;
  publicKey: Uint8Array;
  keyId: Uint8Array;
  /** "<name>+<hex key id>+<base64(0x01 || public key)>" (c2sp.org/signed-note). */
  verifierKey: string;
  /** The signed note of a checkpoint. */
  signCheckpoint(checkpoint: Omit<Checkpoint, 'origin'>): string;
}

/**
 * The log's name: PUBLIC_URL without its scheme (host, port and path), then "/medledger".
 * https://records.example.org -> records.example.org/medledger.
 */
export function ledgerOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  const pathPart = url.pathname.replace(/\/+$/, '');
  return `${url.host}${pathPart}/medledger`;
}

/** Where the key is kept when LEDGER_SIGNING_KEY is not set. */
export const ledgerKeyFile = (dataDir: string) => path.join(dataDir, 'secrets', 'ledger.key');

/** A 32-byte Ed25519 seed from its hex text; `what` names it in the error. */
export function parseSeed(hex: string, what: string): Buffer {
  if (!SEED_HEX.test(hex)) throw new Error(`${what} must be 64 hex characters (an Ed25519 seed)`);
  return Buffer.from(hex, 'hex');
}

function seedFrom(dataDir: string, keyHex?: string): Buffer {
  if (keyHex) return parseSeed(keyHex, 'LEDGER_SIGNING_KEY');
  const keyFile = ledgerKeyFile(dataDir);
  const read = () => {
    const text = fs.readFileSync(keyFile, 'utf8').trim();
    if (!SEED_HEX.test(text)) throw new Error(`${keyFile} must hold 64 hex characters (an Ed25519 seed)`);
    return Buffer.from(text, 'hex');
  };
  if (fs.existsSync(keyFile)) return read();
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const seed = crypto.randomBytes(32);
  try {
    fs.writeFileSync(keyFile, seed.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw err;
  }
  return seed;
}

/** An Ed25519 note signer for `name` from a 32-byte seed (exported for known-answer tests). */
export function noteSigner(name: string, seed: Uint8Array) {
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = crypto.createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'));
  const keyId = ed25519KeyId(name, publicKey);
  return {
    name,
    publicKey,
    keyId,
    verifierKey: formatVerifierKey(name, publicKey),
    /** This key's signature line over `text`, to combine with others (a key rotation). */
    signature(text: string): NoteSignature {
      const signature = crypto.sign(null, Buffer.from(text, 'utf8'), privateKey);
      return { name, keyId, signature: new Uint8Array(signature) };
    },
    /** The signed note of `text` (which must end with a newline). */
    sign(text: string): string {
      return formatSignedNote(text, [this.signature(text)]);
    },
  };
}

export type NoteSigner = ReturnType<typeof noteSigner>;

/** The signer of the configured key (LEDGER_SIGNING_KEY, else the key file, made if missing). */
export function configuredNoteSigner(options: { dataDir: string; publicUrl: string; keyHex?: string }) {
  return noteSigner(ledgerOrigin(options.publicUrl), seedFrom(options.dataDir, options.keyHex));
}

export function createLedgerSigner(options: {
  dataDir: string;
  publicUrl: string;
  keyHex?: string;
}): LedgerSigner {
  const signer = configuredNoteSigner(options);
  return {
    name: signer.name,
    publicKey: signer.publicKey,
    keyId: signer.keyId,
    verifierKey: signer.verifierKey,
    signCheckpoint: (checkpoint) => signer.sign(checkpointText({ origin: signer.name, ...checkpoint })),
  };
}
