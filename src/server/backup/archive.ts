// The backup file: a tar archive (GNU tar, Debian's `tar`) holding the manifest, the database and
// the data folder's attachments and mail outbox. Members come from several folders: tar reads
// them from a list file (no command line limit on the number of attachments), in which a line
// `-C<folder>` says where the following names are.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface ArchiveSource {
  folder: string;
  /** Paths relative to `folder`; a folder is taken whole. */
  names: string[];
}

function runTar(args: string[]): void {
  const result = spawnSync('tar', args, { encoding: 'utf8' });
  if (result.error) throw new Error(`tar could not be run (${result.error.message}); install GNU tar`);
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.trim()}`);
}

/**
 * Writes `file` from the sources, first under a temporary name beside it: a backup cut off
 * half-way never has the name of a finished one. Readable by its owner only: the database in it
 * is not encrypted.
 */
export function writeArchive(file: string, sources: ArchiveSource[], workDir: string): void {
  const list = path.join(workDir, 'members.txt');
  const lines = sources.flatMap((source) => [`-C${source.folder}`, ...source.names]);
  fs.writeFileSync(list, `${lines.join('\n')}\n`);
  const partial = `${file}.partial`;
  try {
    fs.writeFileSync(partial, '', { mode: 0o600, flag: 'wx' }); // tar writes into it, keeping the mode
    runTar(['-cf', partial, '--exclude=medledger.lock', '--files-from', list]);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** Unpacks `file` into the (empty) folder `into`. */
export function readArchive(file: string, into: string): void {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  runTar(['-xf', file, '-C', into, '--no-same-owner']);
}
