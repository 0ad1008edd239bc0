// The compiled server (scripts/build.ts): `npm start`'s build is skipped while the sources are the
// ones it was built from, the output is plain JavaScript without esbuild's keepNames helper, and
// the migrations travel with it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildParts } from '../../scripts/build.js';

let copy: string;

beforeAll(() => {
  // A copy of what the server is built from, so that its sources can be changed here.
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-build-'));
  for (const item of ['src/server', 'src/shared', 'scripts/build.ts', 'package-lock.json', 'tsconfig.json'])
    fs.cpSync(item, path.join(copy, item), { recursive: true });
});

afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

const buildIfStale = () => buildParts({ ifStale: true, parts: ['server'], root: copy });

describe('npm run build (the server)', () => {
  it('builds a fresh copy, then only when a source changes, not when one is merely touched', async () => {
    expect(await buildIfStale()).toEqual(['server']);
    expect(fs.existsSync(path.join(copy, 'dist/server/main.js'))).toBe(true);
    expect(await buildIfStale()).toEqual([]);

    const source = path.join(copy, 'src/shared/constants.ts');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(source, later, later);
    expect(await buildIfStale()).toEqual([]);

    fs.appendFileSync(source, '\nexport const BUILD_TEST_MARK = 1;\n');
    expect(await buildIfStale()).toEqual(['server']);
    expect(fs.readFileSync(path.join(copy, 'dist/shared/constants.js'), 'utf8')).toContain('BUILD_TEST_MARK');
    expect(await buildIfStale()).toEqual([]);

    // A new migration is an input too (it is copied beside the compiled connect.js).
    fs.writeFileSync(path.join(copy, 'src/server/db/migrations/9999_build_test.sql'), 'select 1;');
    expect(await buildIfStale()).toEqual(['server']);
    expect(fs.existsSync(path.join(copy, 'dist/server/db/migrations/9999_build_test.sql'))).toBe(true);
  });

  it('writes plain JavaScript: no keepNames helper, no TypeScript import left, migrations beside it', async () => {
    await buildIfStale();
    const compiled = fs
      .readdirSync(path.join(copy, 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(compiled.length).toBeGreaterThan(100);
    for (const file of compiled) {
      const text = fs.readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/\b__name\(/);
      expect(text, file).not.toMatch(/from ['"][^'"]+\.ts['"]/);
    }
    // No test module is compiled.
    expect(compiled.filter((file) => file.endsWith('.test.js'))).toEqual([]);
    expect(fs.existsSync(path.join(copy, 'dist/server/db/migrations/meta/_journal.json'))).toBe(true);
  });
});
