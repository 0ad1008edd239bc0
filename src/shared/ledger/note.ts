// Signed notes and checkpoints in the C2SP formats (c2sp.org/signed-note, c2sp.org/tlog-checkpoint),
// Ed25519 only. Pure encoding and parsing plus verification with WebCrypto (crypto.subtle, present
// in Node 20 and in current browsers in secure contexts), so the witness, the receipt check on the
// command line and the /verify page all run this same code. Signing happens on the server only.
//
//   note text      "<origin>\n<tree size>\n<base64 root hash>\n"
//   signed note    note text + "\n" + "— <key name> <base64(4-byte key id || 64-byte signature)>\n"
//   key id         SHA-256(key name || 0x0A || 0x01 || 32-byte public key)[:4]
//   verifier key   "<key name>+<8 hex digits key id>+<base64(0x01 || 32-byte public key)>"
import { bytesEqual } from './merkle.js';
import { sha256, toHex, utf8 } from './sha256.js';

/** Signature type byte of Ed25519 in signed notes. */
export const ED25519_TYPE = 0x01;
/** The signature line's prefix: U+2014 EM DASH and a space. */
export const SIGNATURE_PREFIX = '\u2014 ';
/** Notes larger than this are refused before parsing (a checkpoint is a few hundred bytes). */
export const MAX_NOTE_LENGTH = 64 * 1024;
const MAX_SIGNATURES = 100;

/** A note or key that cannot be accepted; the message is one plain sentence. */
export class NoteError extends Error {}

// --- base64 (RFC 4648 section 4, with padding), strict ---

export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** Bytes of standard padded base64; anything else (other alphabets, missing padding) is refused. */
export function base64Decode(text: string): Uint8Array {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new NoteError('Invalid base64.');
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  // Non-zero padding bits would give two spellings of the same bytes.
  if (base64Encode(out) !== text) throw new NoteError('Invalid base64.');
  return out;
}

// --- keys ---

/** A key name: non-empty, no Unicode spaces, no plus sign. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name);
}

/** The 4-byte key id of an Ed25519 key under `name`. */
export function ed25519KeyId(name: string, publicKey: Uint8Array): Uint8Array {
  const nameBytes = utf8(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes, 0);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519_TYPE;
  input.set(publicKey, nameBytes.length + 2);
  return sha256(input).slice(0, 4);
}

export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  /** 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new NoteError('A key name must be non-empty, without spaces or "+".');
  if (publicKey.length !== 32) throw new NoteError('An Ed25519 public key is 32 bytes.');
  const typed = new Uint8Array(33);
  typed[0] = ED25519_TYPE;
  typed.set(publicKey, 1);
  return `${name}+${toHex(ed25519KeyId(name, publicKey))}+${base64Encode(typed)}`;
}

/** Parses "<name>+<hex id>+<base64 key>" and checks that the id belongs to the key. */
export function parseVerifierKey(text: string): VerifierKey {
  const parts = text.trim().split('+');
  // The base64 part may itself hold '+': the name has none and the id is hex, so split twice only.
  if (parts.length < 3) throw new NoteError('The verifier key is not of the form <name>+<key id>+<key>.');
  const [name, idHex] = parts;
  const keyText = parts.slice(2).join('+');
  if (!isValidKeyName(name)) throw new NoteError('The verifier key has an invalid name.');
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('The verifier key id is not 8 hexadecimal digits.');
  let typed: Uint8Array;
  try {
    typed = base64Decode(keyText);
  } catch {
    throw new NoteError('The verifier key is not valid base64.');
  }
  if (typed.length !== 33 || typed[0] !== ED25519_TYPE)
    throw new NoteError('The verifier key is not an Ed25519 key.');
  const publicKey = typed.slice(1);
  const keyId = ed25519KeyId(name, publicKey);
  if (toHex(keyId) !== idHex) throw new NoteError('The verifier key id does not match its key.');
  return { name, keyId, publicKey };
}

// --- notes ---

export interface NoteSignature {
  name: string;
  keyId: Uint8Array;
  /** The signature bytes after the key id. */
  signature: Uint8Array;
}

export interface ParsedNote {
  /** The signed text, ending in a newline. */
  text: string;
  signatures: NoteSignature[];
}

/** Text with one signature line per signature (the signatures are over `text`). */
export function formatSignedNote(text: string, signatures: readonly NoteSignature[]): string {
  checkNoteText(text);
  const lines = signatures.map((s) => {
    const blob = new Uint8Array(4 + s.signature.length);
    blob.set(s.keyId, 0);
    blob.set(s.signature, 4);
    return `${SIGNATURE_PREFIX}${s.name} ${base64Encode(blob)}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

function checkNoteText(text: string) {
  if (!text.endsWith('\n')) throw new NoteError('The note text must end with a newline.');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new NoteError('The note contains control characters.');
}

/** Splits a signed note into its text and signature lines; refuses anything malformed. */
export function parseSignedNote(note: string): ParsedNote {
  if (note.length > MAX_NOTE_LENGTH) throw new NoteError('The signed note is too large.');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note))
    throw new NoteError('The signed note contains control characters.');
  if (/[\ud800-\udfff]/u.test(note.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')))
    throw new NoteError('The signed note is not valid UTF-8.');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('The signed note has no signatures.');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (!block.endsWith('\n')) throw new NoteError('The signed note does not end with a newline.');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw new NoteError('The signed note has too many signatures.');
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new NoteError('A signature line does not start with "— ".');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0) throw new NoteError('A signature line has no signature.');
    const name = rest.slice(0, space);
    if (!isValidKeyName(name)) throw new NoteError('A signature line has an invalid key name.');
    let blob: Uint8Array;
    try {
      blob = base64Decode(rest.slice(space + 1));
    } catch {
      throw new NoteError('A signature is not valid base64.');
    }
    if (blob.length < 5) throw new NoteError('A signature is too short.');
    return { name, keyId: blob.slice(0, 4), signature: blob.slice(4) };
  });
  return { text, signatures };
}

/** Ed25519 verification through WebCrypto. */
export async function ed25519Verify(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle)
    throw new NoteError('This environment has no Web Crypto (a browser needs https or localhost).');
  let key: CryptoKey;
  try {
    key = await subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, [
      'verify',
    ]);
  } catch {
    throw new NoteError('This environment cannot check Ed25519 signatures.');
  }
  return subtle.verify(
    { name: 'Ed25519' },
    key,
    signature as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  );
}

/**
 * The note's text when a signature by `key` verifies. Signatures by other keys are ignored; a
 * failing signature by the key rejects the note (c2sp.org/signed-note, "Signatures").
 */
export async function openNote(note: string, key: VerifierKey): Promise<string> {
  const parsed = parseSignedNote(note);
  const own = parsed.signatures.filter((s) => s.name === key.name && bytesEqual(s.keyId, key.keyId));
  if (own.length === 0)
    throw new NoteError(`The note is not signed by the key ${key.name}+${toHex(key.keyId)}.`);
  const message = utf8(parsed.text);
  for (const s of own) {
    if (s.signature.length !== 64 || !(await ed25519Verify(key.publicKey, s.signature, message)))
      throw new NoteError(`The signature by ${key.name} does not verify: the note was altered or forged.`);
  }
  return parsed.text;
}

// --- checkpoints ---

export interface Checkpoint {
  origin: string;
  treeSize: number;
  /** 32-byte root hash. */
  rootHash: Uint8Array;
}

export function checkpointText(c: Checkpoint): string {
  if (!isValidKeyName(c.origin)) throw new NoteError('The origin must be non-empty, without spaces or "+".');
  if (!Number.isSafeInteger(c.treeSize) || c.treeSize < 0) throw new NoteError('Invalid tree size.');
  if (c.rootHash.length !== 32) throw new NoteError('The root hash must be 32 bytes.');
  return `${c.origin}\n${c.treeSize}\n${base64Encode(c.rootHash)}\n`;
}

/** The checkpoint in a note text (origin, size, root; extension lines are allowed and ignored). */
export function parseCheckpointText(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '')
    throw new NoteError('The checkpoint does not have an origin, a tree size and a root hash.');
  const [origin, size, root] = lines;
  if (lines.slice(0, -1).some((l) => l === '')) throw new NoteError('The checkpoint has an empty line.');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new NoteError('The checkpoint tree size is not a decimal number.');
  let rootHash: Uint8Array;
  try {
    rootHash = base64Decode(root);
  } catch {
    throw new NoteError('The checkpoint root hash is not valid base64.');
  }
  if (rootHash.length !== 32) throw new NoteError('The checkpoint root hash is not 32 bytes.');
  return { origin, treeSize: Number(size), rootHash };
}

/**
 * A checkpoint signed by `key` whose origin is the key's name (the origin this project uses, see
 * docs/decisions.md#signed-checkpoints). Throws NoteError with a one-line reason otherwise.
 */
export async function openCheckpoint(note: string, key: VerifierKey): Promise<Checkpoint> {
  const text = await openNote(note, key);
  const checkpoint = parseCheckpointText(text);
  if (checkpoint.origin !== key.name)
    throw new NoteError(`The checkpoint is for the log "${checkpoint.origin}", not "${key.name}".`);
  return checkpoint;
}
