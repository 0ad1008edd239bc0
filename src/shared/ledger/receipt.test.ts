// The receipt check's format step, as /verify runs it in the browser: this file loads the shared
// module alone (no Zod full build, which would set the English messages itself), so the messages
// below come from receipt.ts's own setting. The whole check, on real receipts, is tested with the
// server (src/server/features/ledger/receipt.test.ts) and in the browser (e2e/receipt.e2e.ts).
import { describe, expect, it } from 'vitest';
import { verifyReceipt } from './receipt';

const formatDetail = async (input: unknown) => {
  const { ok, checks } = await verifyReceipt(input);
  expect(ok).toBe(false);
  expect(checks.map((c) => c.name)).toEqual(['format']);
  return checks[0].detail;
};

describe('verifyReceipt, format', () => {
  it('names what is wrong in a file that is not a receipt, in words', async () => {
    expect(await formatDetail({ format: 'something-else/v9' })).toBe(
      'This is not a MedLedger receipt (format: Invalid input: expected "medledger-receipt/v1").',
    );
    expect(await formatDetail('a text file')).toBe(
      'This is not a MedLedger receipt (file: Invalid input: expected object, received string).',
    );
  });

  it('holds every field to its limits', async () => {
    // Well formed but for the one field each case breaks (the signature is never reached).
    const base = {
      format: 'medledger-receipt/v1',
      origin: 'medledger.test/log',
      verifierKey: 'k',
      recordId: 'r',
      entry: {},
      entryHash: 'ab'.repeat(32),
      leafIndex: 0,
      treeSize: 1,
      inclusionProof: [],
      checkpoint: 'c',
      attachments: [],
      issuedAt: '2026-11-27T00:00:00.000Z',
    };
    expect(await formatDetail({ ...base, entryHash: 'AB'.repeat(32) })).toBe(
      'This is not a MedLedger receipt (entryHash: must be a lowercase SHA-256 in hex).',
    );
    expect(await formatDetail({ ...base, leafIndex: -1 })).toBe(
      'This is not a MedLedger receipt (leafIndex: Too small: expected number to be >=0).',
    );
    expect(await formatDetail({ ...base, treeSize: 1.5 })).toBe(
      'This is not a MedLedger receipt (treeSize: Invalid input: expected int, received number).',
    );
    expect(await formatDetail({ ...base, origin: '' })).toBe(
      'This is not a MedLedger receipt (origin: Too small: expected string to have >=1 characters).',
    );
    expect(
      await formatDetail({ ...base, inclusionProof: Array.from({ length: 65 }, () => base.entryHash) }),
    ).toBe('This is not a MedLedger receipt (inclusionProof: Too big: expected array to have <=64 items).');
    expect(await formatDetail({ ...base, opening: { salt: base.entryHash, content: 'not an object' } })).toBe(
      'This is not a MedLedger receipt (opening.content: Invalid input: expected record, received string).',
    );
  });
});
