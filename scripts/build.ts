// npm run build: the client (Vite, into dist/client) and the server (esbuild, into dist/server and
// dist/shared, one JavaScript file per TypeScript file). `npm start` runs this with --if-stale
// first (prestart): a part is rebuilt only when its sources differ from the ones it was built from,
// which each part's stamp file records as one SHA-256 over the sources' paths and contents.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** The project's folder; tests build a copy of it elsewhere. */
const projectRoot = path.resolve(import.meta.dirname, '..');

const MIGRATIONS = 'src/server/db/migrations';
const STAMP = '.build-stamp';

/** Every file under `dir` (relative to `root`), sorted, so a fingerprint does not depend on readdir. */
function filesUnder(root: string, dir: string): string[] {
  const at = (relative: string) => path.join(root, relative);
  if (!fs.existsSync(at(dir))) return [];
  return fs
    .readdirSync(at(dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith('src/server/test/');

export type PartName = 'server' | 'client';

interface Part {
  name: PartName;
  /** The folders the part writes (relative to the root); its stamp is kept in the first. */
  outputs: string[];
  /** What it is built from (relative to the root): a change to any of these makes it stale. */
  inputs(root: string): string[];
  build(root: string): Promise<void>;
}

// This script and the dependencies' versions are inputs of both parts.
const common = ['scripts/build.ts', 'package-lock.json', 'tsconfig.json'];

/** The server's TypeScript (tests aside); the migrations are copied beside it. */
const serverSources = (root: string) =>
  [...filesUnder(root, 'src/server'), ...filesUnder(root, 'src/shared')].filter(
    (file) => /\.tsx?$/.test(file) && !isTest(file),
  );

const server: Part = {
  name: 'server',
  outputs: ['dist/server', 'dist/shared'],
  inputs: (root) => [...common, ...serverSources(root), ...filesUnder(root, MIGRATIONS)],
  async build(root) {
    // File by file, not bundled: each module keeps its own import.meta.url, so the migrations
    // folder (db/connect.ts) and the hash worker (ledger/hash-pool.ts) are found beside it. No
    // keepNames: tsx's keeps function names by a defineProperty on every closure as it is made.
    await build({
      entryPoints: serverSources(root).map((file) => path.join(root, file)),
      outdir: path.join(root, 'dist'),
      outbase: path.join(root, 'src'),
      format: 'esm',
      platform: 'node',
      target: 'node20',
      bundle: false,
      logLevel: 'warning',
    });
    fs.cpSync(path.join(root, MIGRATIONS), path.join(root, 'dist/server/db/migrations'), {
      recursive: true,
    });
  },
};

const client: Part = {
  name: 'client',
  outputs: ['dist/client'],
  inputs: (root) => [
    ...common,
    'vite.config.ts',
    ...filesUnder(root, 'src/client'),
    ...filesUnder(root, 'src/shared'),
  ],
  async build(root) {
    const vite = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (vite.status !== 0) throw new Error(`vite build failed (exit ${vite.status ?? vite.signal})`);
  },
};

function fingerprint(root: string, part: Part): string {
  const hash = crypto.createHash('sha256');
  for (const file of part.inputs(root)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (root: string, part: Part) => path.join(root, part.outputs[0], STAMP);

/** Whether the part's output was built from exactly its current sources. */
function isCurrent(root: string, part: Part): boolean {
  const stamp = stampFile(root, part);
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === fingerprint(root, part);
}

async function buildPart(root: string, part: Part): Promise<void> {
  const started = Date.now();
  const sources = fingerprint(root, part);
  // The stamp goes with the old output and comes back last: a build cut off half-way is stale.
  for (const output of part.outputs) fs.rmSync(path.join(root, output), { recursive: true, force: true });
  await part.build(root);
  fs.writeFileSync(stampFile(root, part), `${sources}\n`);
  console.log(`Built the ${part.name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/**
 * Builds the parts asked for (both by default); with `ifStale`, only those whose sources changed
 * since their last build (a fresh clone has no stamps, so everything is built). The names of the
 * parts it built.
 */
export async function buildParts(options: {
  ifStale: boolean;
  parts?: PartName[];
  root?: string;
}): Promise<PartName[]> {
  const root = options.root ?? projectRoot;
  const built: PartName[] = [];
  for (const part of [client, server]) {
    if (options.parts && !options.parts.includes(part.name)) continue;
    if (options.ifStale && isCurrent(root, part)) continue;
    await buildPart(root, part);
    built.push(part.name);
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const parts = (['server', 'client'] as const).filter((part) => args.includes(`--${part}`));
  buildParts({ ifStale: args.includes('--if-stale'), parts: parts.length > 0 ? parts : undefined }).catch(
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
