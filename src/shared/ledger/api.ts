// Shapes of the ledger API (docs/decisions.md#the-ledger). Hashes are lowercase hex.
import { z } from 'zod';
import { decimalOnly } from '../query-numbers.js';
import { HASH_MESSAGE } from './sha256.js';

export { HASH_MESSAGE };

/** A SHA-256 in hex, any case in, lowercase out. */
export const hashParamSchema = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, HASH_MESSAGE)
  .transform((s) => s.toLowerCase());

const count = decimalOnly(
  z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(0)
    .max(Number.MAX_SAFE_INTEGER),
);

export const treeSizeQuerySchema = z.object({ treeSize: count.optional() });
export const consistencyQuerySchema = z.object({ from: count, to: count });

export const treeHeadSchema = z.object({ treeSize: z.number().int(), rootHash: z.string() });
export type TreeHead = z.infer<typeof treeHeadSchema>;

export const entryProofSchema = treeHeadSchema.extend({
  hash: z.string(),
  leafIndex: z.number().int(),
  auditPath: z.array(z.string()),
  createdAt: z.string(),
  kind: z.string(),
});
export type EntryProof = z.infer<typeof entryProofSchema>;

/** GET /api/ledger/entries/{hash}: the proof, and for a record's entry whether its provider is verified. */
export const entryLookupSchema = entryProofSchema.extend({
  providerVerified: z.boolean().nullable().optional(),
});
export type EntryLookup = z.infer<typeof entryLookupSchema>;

export const consistencySchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(z.string()),
});

const laterEntrySchema = z.object({ hash: z.string(), createdAt: z.string() });

/**
 * What became of the record that entered a file, in hashes and times only: still current, replaced
 * by an amendment (the amendment's entry), or retracted as entered in error (the retraction's entry).
 */
export const recordFateSchema = z.object({
  documentStatus: z.enum(['current', 'superseded', 'entered-in-error']),
  supersededBy: laterEntrySchema.nullable(),
  enteredInError: laterEntrySchema.nullable(),
});
export type RecordFate = z.infer<typeof recordFateSchema>;

export const fileVerificationSchema = z.object({
  found: z.boolean(),
  /** SHA-256 of the file that was sent (or the hash that was asked about). */
  sha256: z.string(),
  entry: entryProofSchema.nullable(),
  fate: recordFateSchema.nullable().optional(),
  /** The issuing hospital is a verified provider (null when the file was not found). */
  providerVerified: z.boolean().nullable().optional(),
});
export type FileVerification = z.infer<typeof fileVerificationSchema>;

export const CHECK_NAMES = ['entry', 'content', 'attachments', 'chain', 'inclusion'] as const;

export const recordVerificationSchema = z.object({
  verified: z.boolean(),
  reason: z.string().nullable(),
  failedCheck: z.enum(CHECK_NAMES).nullable(),
  checks: z.array(z.object({ name: z.enum(CHECK_NAMES), ok: z.boolean(), detail: z.string() })),
  hash: z.string().nullable(),
  leafIndex: z.number().int().nullable(),
  entryCreatedAt: z.string().nullable(),
  treeSize: z.number().int(),
  rootHash: z.string().nullable(),
  auditPath: z.array(z.string()),
  checkedAt: z.string(),
  /** The entry's content was erased (its salt deleted): chain and proof still check, the content cannot. */
  contentErased: z.boolean().default(false),
});
export type RecordVerification = z.infer<typeof recordVerificationSchema>;
