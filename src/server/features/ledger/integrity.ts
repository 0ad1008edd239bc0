// The full audit behind `npm run ledger -- verify`: reads every ledger entry in order and checks
// the sequence has no gaps, each hash against its canonical text, each chain link, every stored
// Merkle node against the tree rebuilt from the entries, and every record against its entry
// (row fields and attachment bytes). A v2 entry's opening (salt + content in ledger_contents) must
// match its commitments. A missing opening is "content erased", not a problem, only when a
// `content_erasure` entry records it (erasure.ts); its hash, chain link and leaf are checked like
// any other, and an erased upload's record must still be as it was when erased. Memory stays
// constant but for the erasures: entries are read in batches and the tree is rebuilt with a stack
// of at most log2(n) pending subtrees.
import { and, asc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { attachments, ledgerEntries, ledgerNodes, medicalRecords } from '../../db/schema.js';
import type { FileStore } from '../../files/store.js';
import { GENESIS_CHAIN_HASH } from '../../../shared/ledger/entry.js';
import { emptyRoot } from '../../../shared/ledger/merkle.js';
import { bytesOf, chainHashOf, hexOf, leafOf, nodeOf, sha256, sha256Hex } from './hashing.js';
import type { AttachmentHasher } from './hash-pool.js';
import { rootAt } from './tree.js';
import { openEntry, openingsBetween, type OpenedEntry, type Opening } from './commitments.js';
import { recordDigestOf, recordedErasures, type Erasure } from './erasure.js';
import { compareRecord, type AttachmentRow, type ComparedRecord, type LedgerEntryRow } from './verify.js';

export interface AuditProgress {
  entries: number;
  total: number;
  records: number;
}

export interface AuditReport {
  entries: number;
  records: number;
  attachmentBytes: number;
  canonicalBytes: number;
  treeSize: number;
  rootHash: string;
  problems: string[];
  /** Problems beyond this many are counted, not listed. */
  problemCount: number;
  /** v2 entries whose content was erased by a recorded erasure; not problems. */
  erasedCount: number;
  /** Their erasures (the first maxListedProblems). */
  erased: Erasure[];
}

export interface AuditOptions {
  batchSize?: number;
  /** Check records and attachment bytes too (default true). */
  records?: boolean;
  onProgress?: (progress: AuditProgress) => void;
  maxListedProblems?: number;
  /**
   * Reads back and hashes the attachments: `files` itself by default, or a HashPool
   * (hash-pool.ts) that spreads the work over worker threads.
   */
  hasher?: AttachmentHasher & { threads?: number };
}

interface Pending {
  level: number;
  hash: Uint8Array;
}

export async function auditLedger(
  db: Db,
  files: FileStore,
  options: AuditOptions = {},
): Promise<AuditReport> {
  const batchSize = options.batchSize ?? 2000;
  const maxListed = options.maxListedProblems ?? 100;
  const report: AuditReport = {
    entries: 0,
    records: 0,
    attachmentBytes: 0,
    canonicalBytes: 0,
    treeSize: 0,
    rootHash: '',
    problems: [],
    problemCount: 0,
    erasedCount: 0,
    erased: [],
  };
  const problem = (text: string) => {
    report.problemCount++;
    if (report.problems.length < maxListed) report.problems.push(text);
  };
  let total: number | undefined; // read only for progress reports
  const erasures = await recordedErasures(db);

  let expectedSeq = 0;
  let previousChain = GENESIS_CHAIN_HASH;
  const stack: Pending[] = [];
  let lastSeq = -1;
  // Each batch is a window of seq numbers fixed before anything of it is read, so that its uploads'
  // attachments are queued for hashing first (a pool hashes while this thread reads and checks the
  // entries) and the next batch's are queued before this one's record checks are awaited, and the
  // workers never wait for this thread between batches. Entries are appended under the ledger lock
  // held until commit (service.ts), so a window read twice holds the same entries.
  const checkRecords = options.records !== false;
  const hasher = options.hasher ?? files;
  let end = await windowEnd(db, lastSeq, batchSize);
  let recordChecks =
    end !== null && checkRecords
      ? await beginRecordChecks(db, hasher, lastSeq, end, report, erasures)
      : undefined;
  let finalChecks: Promise<string[]> | undefined;
  while (end !== null) {
    const batch = await db
      .select()
      .from(ledgerEntries)
      .where(and(gt(ledgerEntries.seq, lastSeq), lte(ledgerEntries.seq, end)))
      .orderBy(asc(ledgerEntries.seq));
    const first = expectedSeq;
    const computed = new Map<string, string>();
    const openings = await openingsBetween(db, lastSeq, end);
    const openedBySeq = new Map<number, OpenedEntry>();
    for (const entry of batch) {
      const seq = Number(entry.seq);
      if (seq !== expectedSeq) {
        // The tree and chain cannot be rebuilt across a gap; carry on checking what is there.
        problem(`Entries ${expectedSeq}..${seq - 1} are missing from the ledger.`);
      }
      const canonical = Buffer.from(entry.canonical, 'utf8');
      report.canonicalBytes += canonical.length;
      if (sha256Hex(canonical) !== entry.hash)
        problem(`Entry ${seq}: its hash does not match its canonical text.`);
      const opened = openEntry(entry, openings.get(seq));
      openedBySeq.set(seq, opened);
      if (opened.state === 'unreadable') problem(`Entry ${seq}: its stored text is not a ledger entry.`);
      else if (opened.state === 'altered')
        problem(
          `Entry ${seq}: its stored content was changed (it no longer matches the entry's commitments).`,
        );
      else if (opened.state === 'erased') {
        const erasure = erasures.get(seq);
        if (erasure?.erasedHash !== entry.hash)
          problem(
            `Entry ${seq} (${entry.kind}): its content is missing and no erasure entry records its erasure (it was deleted outside \`npm run ledger -- erase\`).`,
          );
        else {
          report.erasedCount++;
          if (report.erased.length < maxListed) report.erased.push(erasure);
        }
      }
      if (chainHashOf(previousChain, entry.hash) !== entry.chainHash)
        problem(`Entry ${seq}: its chain hash does not follow from entry ${seq - 1}.`);
      previousChain = entry.chainHash;
      // Rebuild the tree from the stored hashes (the chain check covers those hashes).
      let node: Pending = { level: 0, hash: leafOf(bytesOf(entry.hash)) };
      computed.set(`0:${seq}`, hexOf(node.hash));
      while (stack.length > 0 && stack[stack.length - 1].level === node.level) {
        const left = stack.pop()!;
        node = { level: node.level + 1, hash: nodeOf(left.hash, node.hash) };
        computed.set(`${node.level}:${Math.floor(seq / 2 ** node.level)}`, hexOf(node.hash));
      }
      stack.push(node);
      expectedSeq = seq + 1;
      report.entries++;
    }
    lastSeq = end;
    await compareNodes(db, first, expectedSeq, computed, problem);
    end = await windowEnd(db, lastSeq, batchSize);
    const nextChecks =
      end !== null && checkRecords
        ? await beginRecordChecks(db, hasher, lastSeq, end, report, erasures)
        : undefined;
    // After the last batch, the checks of the whole tree and table run while its records finish.
    if (end === null) {
      finalChecks = checkWhole(db, expectedSeq, stack, checkRecords, report);
      finalChecks.catch(() => {}); // awaited after the records; a failure is thrown there
    }
    if (recordChecks)
      for (const found of await recordChecks(batch, openings, openedBySeq)) found.forEach(problem);
    recordChecks = nextChecks;
    if (options.onProgress) {
      total ??= await countEntries(db);
      options.onProgress({ entries: report.entries, total, records: report.records });
    }
  }
  (await (finalChecks ?? checkWhole(db, expectedSeq, stack, checkRecords, report))).forEach(problem);
  return report;
}

/** The last seq of the next batch (up to `batchSize` entries after `after`), or null when none. */
async function windowEnd(db: Db, after: number, batchSize: number): Promise<number | null> {
  const window = db
    .select({ seq: ledgerEntries.seq })
    .from(ledgerEntries)
    .where(gt(ledgerEntries.seq, after))
    .orderBy(asc(ledgerEntries.seq))
    .limit(batchSize)
    .as('window');
  const [{ last }] = await db.select({ last: sql<string | null>`max(${window.seq})` }).from(window);
  return last === null ? null : Number(last);
}

async function countEntries(db: Db): Promise<number> {
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(ledgerEntries);
  return total;
}

/**
 * Once every entry is read: the tree's size and root (into the report), the tree against the
 * stored head and extent, and (with records) the final records without an entry. Gives the
 * problems found, to be reported after the last batch's.
 */
async function checkWhole(
  db: Db,
  size: number,
  stack: Pending[],
  checkRecords: boolean,
  report: AuditReport,
): Promise<string[]> {
  report.treeSize = size;
  let root = emptyRoot(sha256);
  if (stack.length > 0) {
    let acc = stack[stack.length - 1].hash;
    for (let i = stack.length - 2; i >= 0; i--) acc = nodeOf(stack[i].hash, acc);
    root = acc;
  }
  report.rootHash = hexOf(root);
  const found: string[] = [];
  await checkTreeExtent(db, report.treeSize, report.rootHash, (text) => found.push(text));
  if (checkRecords) await checkUnledgeredRecords(db, (text) => found.push(text));
  return found;
}

/** Every stored node completed by leaves [from, to) must equal the rebuilt one. */
async function compareNodes(
  db: Db,
  from: number,
  to: number,
  computed: Map<string, string>,
  problem: (text: string) => void,
) {
  if (to <= from) return;
  // Node (L, i) is completed by its last leaf (i + 1) * 2^L - 1; select those in [from, to).
  const ranges: SQL[] = [];
  for (let level = 0; 2 ** level <= to; level++) {
    const lo = Math.ceil((from + 1) / 2 ** level) - 1;
    const hi = Math.floor(to / 2 ** level) - 1;
    if (hi >= lo)
      ranges.push(sql`(${ledgerNodes.level} = ${level} and ${ledgerNodes.idx} between ${lo} and ${hi})`);
  }
  const rows = await db
    .select()
    .from(ledgerNodes)
    .where(or(...ranges));
  const seen = new Set<string>();
  for (const row of rows) {
    const key = `${row.level}:${Number(row.idx)}`;
    seen.add(key);
    const expected = computed.get(key);
    if (expected !== undefined && expected !== row.hash)
      problem(`Merkle node ${row.level}/${row.idx} does not match the entries.`);
  }
  for (const key of computed.keys()) {
    if (!seen.has(key)) problem(`Merkle node ${key.replace(':', '/')} is missing.`);
  }
}

/** Nodes beyond the entries (an entry deleted at the end) and the stored root. */
async function checkTreeExtent(db: Db, size: number, rootHash: string, problem: (text: string) => void) {
  const [{ leaves }] = await db
    .select({ leaves: sql<number>`count(*)::int` })
    .from(ledgerNodes)
    .where(and(eq(ledgerNodes.level, 0), sql`${ledgerNodes.idx} >= ${size}`));
  if (leaves > 0)
    problem(`The Merkle tree has ${leaves} leaf/leaves beyond the last entry: entries were deleted.`);
  if (size > 0) {
    try {
      const stored = Buffer.from(await rootAt(db, size)).toString('hex');
      if (stored !== rootHash) problem('The stored tree head does not match the entries.');
    } catch (err) {
      problem((err as Error).message);
    }
  }
}

/**
 * Begins checking the records of the uploads among entries (after, end] (fields against the
 * entry, attachment bytes against their SHA-256): reads the rows and, on a pool, queues every
 * attachment for hashing at once. The function it returns, given the entries of that window,
 * finishes the checks and gives each upload's problems, in ledger order.
 */
async function beginRecordChecks(
  db: Db,
  files: AttachmentHasher & { threads?: number },
  after: number,
  end: number,
  report: AuditReport,
  erasures: Map<number, Erasure>,
): Promise<
  (
    batch: LedgerEntryRow[],
    openings: Map<number, Opening>,
    opened: Map<number, OpenedEntry>,
  ) => Promise<string[][]>
> {
  const uploaded = db
    .select({ id: ledgerEntries.recordId })
    .from(ledgerEntries)
    .where(
      and(eq(ledgerEntries.kind, 'record_upload'), gt(ledgerEntries.seq, after), lte(ledgerEntries.seq, end)),
    );
  const rows = await db
    .select()
    .from(attachments)
    .where(inArray(attachments.recordId, uploaded))
    .orderBy(asc(attachments.recordId), asc(attachments.position));
  // A pool queues jobs and hands each worker a few at a time, so everything can be asked of it now;
  // a store read on this thread holds a read buffer per file, so a few records go at a time.
  let hasher: AttachmentHasher = files;
  if (files.threads) {
    const hashes = new Map<string, ReturnType<AttachmentHasher['hashStored']>>();
    for (const row of rows) {
      const hashed = files.hashStored(row);
      hashed.catch(() => {}); // awaited in compareRecord; a failed worker is reported there
      hashes.set(row.storageKey, hashed);
    }
    hasher = { hashStored: (ref) => hashes.get(ref.storageKey) ?? files.hashStored(ref) };
  }
  // The columns compareRecord reads, not the whole row: a third less for the embedded database to
  // decode on this thread (2.2 against 3.3 ms per 120 records).
  const m = medicalRecords;
  const records = await db
    .select({
      id: m.id,
      patientId: m.patientId,
      hospitalId: m.hospitalId,
      title: m.title,
      description: m.description,
      recordType: m.recordType,
      doctorName: m.doctorName,
      department: m.department,
      serviceDate: m.serviceDate,
      createdAt: m.createdAt,
      supersedesId: m.supersedesId,
      supersedesHash: m.supersedesHash,
      blockchainHash: m.blockchainHash,
    } satisfies Record<keyof ComparedRecord, unknown>)
    .from(m)
    .where(inArray(m.id, uploaded));
  const byRecord = new Map<string, AttachmentRow[]>();
  for (const row of rows) byRecord.set(row.recordId, [...(byRecord.get(row.recordId) ?? []), row]);
  const recordById = new Map(records.map((r) => [r.id, r]));
  return (batch, openings, opened) => {
    const uploads = batch.filter((e) => e.kind === 'record_upload' && e.recordId);
    return mapConcurrent(uploads, files.threads ? uploads.length : RECORD_CONCURRENCY, async (entry) => {
      const record = recordById.get(entry.recordId!);
      if (!record) return [`Entry ${entry.seq}: record ${entry.recordId} no longer exists.`];
      const own = byRecord.get(record.id) ?? [];
      const seq = Number(entry.seq);
      const {
        content,
        attachments: stored,
        erased,
        recordContent,
      } = await compareRecord(hasher, record, own, entry, openings.get(seq) ?? null, opened.get(seq));
      // An erased entry can no longer vouch for its record's fields, but its erasure holds the
      // record's digest as it stood then. Without an erasure the entry is a problem (above).
      // The attachment bytes are still checked against their recorded SHA-256.
      const erasure = erasures.get(seq);
      if (erased && erasure?.erasedHash === entry.hash) {
        content.ok = erasure.recordDigest === recordDigestOf(recordContent);
        content.detail = `The record changed after its entry's content was erased (erasure entry ${erasure.seq}).`;
      }
      report.attachmentBytes += own.reduce((sum, a) => sum + Number(a.size), 0);
      report.records++;
      return [stored, content]
        .filter((c) => !c.ok)
        .map((c) => `Record ${record.id} (entry ${entry.seq}): ${c.detail}`);
    });
  };
}

const RECORD_CONCURRENCY = 4;

async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Final (uploaded) records must each have a ledger entry. */
async function checkUnledgeredRecords(db: Db, problem: (text: string) => void) {
  const missing = await db
    .select({ id: medicalRecords.id })
    .from(medicalRecords)
    .leftJoin(
      ledgerEntries,
      and(eq(ledgerEntries.recordId, medicalRecords.id), eq(ledgerEntries.kind, 'record_upload')),
    )
    .where(and(eq(medicalRecords.status, 'final'), isNull(ledgerEntries.seq)));
  for (const row of missing) problem(`Record ${row.id} has no ledger entry.`);
}
