// The counts of a hospital's whole trail come from hospital_audit_counts (a trigger on audit_logs,
// migration 0026), not from counting the trail. Each case compares the page's totals with what the
// trail's rows hold, counted here in JavaScript, after the rows were written, removed and changed
// in every way the table allows, from one connection or (on PostgreSQL) several at once.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, hospitalAuditCounts } from '../../db/schema.js';
import { auditRows, call, signedInHospital, useCast } from '../../test/helpers.js';
import { foldAuditCounts } from './service.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const t = useCast();

const isRoutine = (e: { action: string; entityType: string | null }) =>
  e.action === 'record_access' && e.entityType === 'patient';

/** The hospital's trail counted from its rows: every entry, and the routine reads among them. */
async function counted() {
  const rows = await auditRows(t, { hospitalId: t.hospital.userId });
  return { all: rows.length, routine: rows.filter(isRoutine).length };
}

/** The whole trail's totals as the Audit page gets them, routine reads shown and hidden. */
async function answered() {
  const get = async (query: string) =>
    (await call(t.app, 'GET', `/api/audit-logs?pageSize=1${query}`, t.hospital.cookie)).json<{
      total: number;
      routineHidden?: number;
    }>();
  const shown = await get('');
  const hidden = await get('&routine=hide');
  return { all: shown.total, routine: hidden.routineHidden, shownWhenHidden: hidden.total };
}

async function expectTotalsOfTheRows() {
  const rows = await counted();
  expect(await answered()).toEqual({
    all: rows.all,
    routine: rows.routine,
    shownWhenHidden: rows.all - rows.routine,
  });
  return rows;
}

const counterRows = () =>
  t.ctx.db.select().from(hospitalAuditCounts).where(eq(hospitalAuditCounts.hospitalId, t.hospital.userId));

/** An entry in the hospital's trail, written as the app writes one (routine: a records list read). */
const entry = (routine: boolean, details: string) => ({
  action: routine ? 'record_access' : 'record_view',
  entityType: routine ? 'patient' : 'medical_record',
  details,
  hospitalId: t.hospital.userId,
});

/**
 * `n` (even) counter rows of the hospital from slot `first` on, as many connections would leave,
 * each pair +figures and -figures, so that the trail's totals stay those of its rows.
 */
const addSlotsSummingToNothing = (
  n: number,
  first: number,
  figures: { entries: number; routineReads: number },
) =>
  t.ctx.db.insert(hospitalAuditCounts).values(
    Array.from({ length: n }, (_, i) => {
      const sign = i % 2 === 0 ? 1 : -1;
      return {
        hospitalId: t.hospital.userId,
        slot: first + i,
        entries: sign * figures.entries,
        routineReads: sign * figures.routineReads,
      };
    }),
  );

describe("a hospital's trail counts", () => {
  it('follow every entry written, removed or changed', async () => {
    // Entries through the API: sign-in, patients added, their lists read (routine reads).
    for (let i = 0; i < 3; i++)
      await call(t.app, 'GET', `/api/medical-records/${t.patientRow.id}`, t.hospital.cookie);
    const before = await expectTotalsOfTheRows();
    expect(before.routine).toBeGreaterThanOrEqual(3);

    // Many at once, each its own statement; on PostgreSQL over several connections of the pool.
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.ctx.db.insert(auditLogs).values(entry(i % 3 === 0, `burst ${i}`)),
      ),
    );
    // Several in one statement, and one in no hospital's trail.
    await t.ctx.db.insert(auditLogs).values([entry(true, 'batch a'), entry(false, 'batch b')]);
    await t.ctx.db.insert(auditLogs).values({ action: 'login', details: 'no hospital' });
    // On PostgreSQL the burst came over several connections, each adding to a row of its own.
    if (onPostgres) expect((await counterRows()).length).toBeGreaterThan(1);
    const grown = await expectTotalsOfTheRows();
    expect(grown.all).toBe(before.all + 26);
    expect(grown.routine).toBe(before.routine + 9);

    // A routine read changed into another action, an entry moved out of the trail, one removed.
    const burst = (i: number) =>
      and(eq(auditLogs.details, `burst ${i}`), eq(auditLogs.hospitalId, t.hospital.userId));
    await t.ctx.db.update(auditLogs).set({ action: 'record_view' }).where(burst(0));
    await t.ctx.db
      .update(auditLogs)
      .set({ hospitalId: (await signedInHospital(t.app)).userId })
      .where(burst(1));
    await t.ctx.db.delete(auditLogs).where(burst(3));
    // An entry of no hospital moved into this one's trail.
    await t.ctx.db
      .update(auditLogs)
      .set({ hospitalId: t.hospital.userId, action: 'record_access', entityType: 'patient' })
      .where(eq(auditLogs.details, 'no hospital'));
    const changed = await expectTotalsOfTheRows();
    expect(changed).toEqual({ all: grown.all - 1, routine: grown.routine - 1 });
  });

  it('are the same after their rows are folded into one', async () => {
    // Rows of many connections (slots that sum to nothing, so the trail's count stays its own).
    await addSlotsSummingToNothing(40, 1_000_000, { entries: 5, routineReads: -2 });
    expect((await counterRows()).length).toBeGreaterThan(40);
    await foldAuditCounts(t.ctx.db, t.hospital.userId);
    expect((await counterRows()).map((r) => r.slot)).toEqual([0]);
    await expectTotalsOfTheRows();
  });

  it('are folded by the page that finds too many rows', async () => {
    await addSlotsSummingToNothing(34, 2_000_000, { entries: 1, routineReads: 0 });
    // The page that finds them still answers the true totals, then leaves one row.
    await expectTotalsOfTheRows();
    expect((await counterRows()).length).toBe(1);
    // The next entry goes to the row of its connection again.
    await t.ctx.db.insert(auditLogs).values(entry(true, 'after the fold'));
    await expectTotalsOfTheRows();
  });

  it.runIf(onPostgres)('fold past a transaction in progress without waiting for it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const inserted = new Promise<void>((resolve) => (written = resolve));
    const writer = t.ctx.db.transaction(async (tx) => {
      await tx.insert(auditLogs).values(entry(true, 'in progress'));
      written();
      await held;
    });
    await inserted;
    // The writer's connection has its own counter row, locked until it commits: the fold skips it
    // and returns at once.
    const folded = await Promise.race([
      foldAuditCounts(t.ctx.db, t.hospital.userId).then(() => 'folded'),
      new Promise((resolve) => setTimeout(() => resolve('waited'), 5_000)),
    ]);
    expect(folded).toBe('folded');
    release();
    await writer;
    expect((await counterRows()).length).toBe(2);
    await expectTotalsOfTheRows();
    await foldAuditCounts(t.ctx.db, t.hospital.userId);
    expect((await counterRows()).length).toBe(1);
    await expectTotalsOfTheRows();
  });

  it('are emptied with the trail', async () => {
    await t.ctx.db.execute(sql`truncate ${auditLogs}`);
    expect(await t.ctx.db.select().from(hospitalAuditCounts)).toEqual([]);
    expect(await answered()).toEqual({ all: 0, routine: 0, shownWhenHidden: 0 });
  });
});
