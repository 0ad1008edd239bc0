// The shared signed-note code (src/shared/ledger/note.ts): strict parsing, unknown signers ignored, a failing known signer
// rejects the note, and the verifier key's id must belong to its key. Keys and signatures are made
// with node:crypto here, independently of the server's signer.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base64Decode,
  checkpointText,
  formatSignedNote,
  formatVerifierKey,
  NoteError,
  openCheckpoint,
  openNote,
  parseCheckpointText,
  parseSignedNote,
  parseVerifierKey,
} from '../../../shared/ledger/note.js';

function keyPair(name: string) {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const keyId = crypto
    .createHash('sha256')
    .update(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, 0x01]), raw]))
    .digest()
    .subarray(0, 4);
  const sign = (text: string) => ({
    name,
    keyId: new Uint8Array(keyId),
    signature: new Uint8Array(crypto.sign(null, Buffer.from(text), privateKey)),
  });
  return { vkey: formatVerifierKey(name, new Uint8Array(raw)), sign };
}

const log = keyPair('example.org/medledger');
const text = checkpointText({
  origin: 'example.org/medledger',
  treeSize: 42,
  rootHash: new Uint8Array(32).fill(7),
});

describe('signed notes', () => {
  it('opens a checkpoint signed by the key, ignoring signatures by unknown keys', async () => {
    const witness = keyPair('witness.example');
    const note = formatSignedNote(text, [witness.sign(text), log.sign(text)]);
    expect(parseSignedNote(note).signatures).toHaveLength(2);
    const checkpoint = await openCheckpoint(note, parseVerifierKey(log.vkey));
    expect(checkpoint).toMatchObject({ origin: 'example.org/medledger', treeSize: 42 });
  });

  it('rejects a note without the key, with a bad signature by the key, or altered text', async () => {
    const key = parseVerifierKey(log.vkey);
    const other = keyPair('example.org/medledger');
    await expect(openNote(formatSignedNote(text, [other.sign(text)]), key)).rejects.toThrow(
      /not signed by the key/,
    );
    const bad = formatSignedNote(text, [log.sign(text.replace('42', '43'))]);
    await expect(openNote(bad, key)).rejects.toThrow(/does not verify/);
    const good = formatSignedNote(text, [log.sign(text)]);
    await expect(openNote(good.replace('\n42\n', '\n43\n'), key)).rejects.toThrow(/does not verify/);
  });

  it('refuses malformed notes with a NoteError', () => {
    const good = formatSignedNote(text, [log.sign(text)]);
    for (const note of [
      text, // no signatures
      good.replace('\u2014 ', '-- '),
      good.slice(0, -1), // no final newline
      good.replace('\n\n', '\n\t\n'),
      good.replace(/ [A-Za-z0-9+/=]+\n$/, ' not base64!\n'),
      good.replace(/ [A-Za-z0-9+/=]+\n$/, ' AAAA\n'), // too short
    ]) {
      expect(() => parseSignedNote(note), JSON.stringify(note)).toThrow(NoteError);
    }
  });

  it('reads checkpoints strictly', () => {
    expect(
      parseCheckpointText('o\n0\n' + Buffer.alloc(32).toString('base64') + '\nextension\n').treeSize,
    ).toBe(0);
    for (const bad of [
      'o\n42\n',
      'o\n042\n' + Buffer.alloc(32).toString('base64') + '\n',
      'o\n-1\n' + Buffer.alloc(32).toString('base64') + '\n',
      'o\n1\n' + Buffer.alloc(31).toString('base64') + '\n',
      'o\n1\n' + Buffer.alloc(32).toString('base64url') + '\n',
    ]) {
      expect(() => parseCheckpointText(bad), bad).toThrow(NoteError);
    }
  });

  it("checks a verifier key's id against its key, and base64 strictly", () => {
    const [name, id, ...rest] = log.vkey.split('+');
    expect(parseVerifierKey(log.vkey).name).toBe(name);
    const wrongId = id === '00000000' ? '00000001' : '00000000';
    expect(() => parseVerifierKey(`${name}+${wrongId}+${rest.join('+')}`)).toThrow(/does not match/);
    expect(() => parseVerifierKey('no plus signs')).toThrow(NoteError);
    expect([...base64Decode('AA==')]).toEqual([0]);
    expect(() => base64Decode('AA=')).toThrow(NoteError);
    expect(() => base64Decode('AB==')).toThrow(NoteError); // non-zero padding bits
    expect(() => base64Decode('A-_A')).toThrow(NoteError); // base64url
  });
});
