// The database's medledger_fold() (migration 0035) and src/shared/fold.ts fold every letter alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { FOLDED_LETTERS, foldForSearch } from '../../shared/fold.js';
import type { Database } from './connect.js';
import { createTestDatabase } from '../test/helpers.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('medledger_fold', () => {
  it('folds each Latin letter with a diacritic, the ligatures and ASCII as the shared fold does', async () => {
    const letters = [...FOLDED_LETTERS, ...'AZaz09 .@%_'];
    const result: unknown = await database.db.execute(
      sql`select medledger_fold(c) as folded from json_array_elements_text(${JSON.stringify(letters)}::json) with ordinality as l(c, n) order by n`,
    );
    expect((result as { rows: { folded: string }[] }).rows.map((r) => r.folded)).toEqual(
      letters.map(foldForSearch),
    );
    expect(foldForSearch('María García-Ñúñez Straße Œuvre')).toBe('maria garcia-nunez strasse oeuvre');
  });
});

describe('the patient search on its index', () => {
  it('plans both sides of the search over the folded trigram indexes', async () => {
    const { patientSearchFilter } = await import('../features/patients/search.js');
    const { patients } = await import('./schema.js');
    const query = database.db
      .select({ id: patients.id })
      .from(patients)
      .where(patientSearchFilter(database.db, 'garcia'));
    const { sql: text, params } = query.toSQL();
    // Without rows the planner would scan; with sequential scans off it shows which index it can use.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained: unknown = await tx.execute(
        sql.raw(
          // The test's own two literals ('%garcia%'), highest number first so $1 never eats $10.
          `explain ${params.reduceRight<string>((q, p, i) => q.replaceAll(`$${i + 1}`, `'${String(p)}'`), text)}`,
        ),
      );
      const plan = (explained as { rows: { 'QUERY PLAN': string }[] }).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('patients_search_fold_idx');
      expect(plan).toContain('users_search_fold_idx');
    });
  });
});
