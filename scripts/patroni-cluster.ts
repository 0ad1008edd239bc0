// A throw-away failover set-up on loopback, from the files in deploy/patroni/ (docs/failover.md):
// one etcd, two PostgreSQL servers managed by Patroni with synchronous replication, and HAProxy
// sending connections to the current primary. Every process runs in a temp folder on free ports
// (Patroni and PostgreSQL as the postgres user when run as root); destroy() ends them all and
// removes the folder. Used by src/server/db/failover.chaos.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port.js';
import { findPgBinDir } from './pg-cluster.js';

const deployDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'deploy', 'patroni');

/** Debian package names of the programs the set-up needs that are not installed (none: ready). */
export function missingFailoverPackages(): string[] {
  const onPath = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  return [
    ...(findPgBinDir() ? [] : ['postgresql']),
    ...(onPath('patroni') ? [] : ['patroni']),
    ...(onPath('etcd') ? [] : ['etcd-server']),
    ...(onPath('haproxy') ? [] : ['haproxy']),
  ];
}

export interface PatroniNode {
  name: string;
  /** postgres://postgres:…@127.0.0.1:<port>/postgres straight to this server, not through HAProxy. */
  url: string;
  dataDir: string;
}

/** A member as Patroni's REST API reports it (GET /cluster). */
export interface Member {
  name: string;
  /** 'leader', 'sync_standby' or 'replica'. */
  role: string;
  state: string;
  timeline?: number;
}

export interface FailoverCluster {
  /** postgres://postgres:…@127.0.0.1:<haproxy port>/postgres: what the app's DATABASE_URL names. */
  url: string;
  nodes: PatroniNode[];
  /** The members and their roles now, from Patroni's REST API. */
  members(): Promise<Member[]>;
  /** Waits until there is a leader, a synchronous standby streaming from it, and HAProxy routes to it. */
  waitUntilReplicated(timeoutMs?: number): Promise<{ leader: PatroniNode; standby: PatroniNode }>;
  /** SIGKILL to the PostgreSQL postmaster of `node` (its children die with it); its pid. */
  killPostmaster(node: PatroniNode): number;
  /**
   * SIGSTOP to `node`'s Patroni and PostgreSQL (every backend): a machine that hangs, whose
   * sockets stay open and silent, unlike a crash that closes them. thaw() sends SIGCONT.
   */
  freeze(node: PatroniNode): void;
  thaw(node: PatroniNode): void;
  /** The end of every process's log, for a failure message. */
  logs(): string;
  /** Ends every process (even half-started) and removes the folder. */
  destroy(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFailoverCluster(): Promise<FailoverCluster> {
  const missing = missingFailoverPackages();
  if (missing.length) {
    throw new Error(
      `The failover set-up needs Debian's ${missing.join(', ')} (apt-get install -y ${missing.join(' ')}).`,
    );
  }
  const binDir = findPgBinDir()!;
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'medledger-failover-'));
  if (asRoot) spawnSync('chown', ['postgres:postgres', dir]);
  const superuserPassword = crypto.randomBytes(12).toString('hex');
  const replicationPassword = crypto.randomBytes(12).toString('hex');
  const children: { name: string; child: ChildProcess; log: string }[] = [];
  const patronis = new Map<string, ChildProcess>();

  /** A program in its own process group (so a kill reaches what it runs), its output to a file. */
  const launch = (
    name: string,
    cmd: string,
    args: string[],
    env: Record<string, string>,
    asPostgres: boolean,
  ) => {
    const log = path.join(dir, `${name}.log`);
    const out = fs.openSync(log, 'a');
    const [file, argv] =
      asPostgres && asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const child = spawn(file, argv, {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', out, out],
      detached: true,
    });
    fs.closeSync(out);
    children.push({ name, child, log });
    return child;
  };

  const ports = {
    etcdClient: await freePort(),
    etcdPeer: await freePort(),
    proxy: await freePort(),
  };
  const nodes = await Promise.all(
    ['node1', 'node2'].map(async (name) => ({
      name,
      pgPort: await freePort(),
      apiPort: await freePort(),
      dataDir: path.join(dir, name, 'data'),
    })),
  );
  const patroniNodes: PatroniNode[] = nodes.map((n) => ({
    name: n.name,
    url: `postgres://postgres:${superuserPassword}@127.0.0.1:${n.pgPort}/postgres`,
    dataDir: n.dataDir,
  }));

  const members = async (): Promise<Member[]> => {
    for (const n of nodes) {
      try {
        const res = await fetch(`http://127.0.0.1:${n.apiPort}/cluster`, {
          signal: AbortSignal.timeout(2_000),
        });
        if (res.ok) return ((await res.json()) as { members: Member[] }).members;
      } catch {
        // this member's API is not up (yet, or any more): ask the other
      }
    }
    return [];
  };

  const postmasterPid = (node: { dataDir: string }): number | null => {
    try {
      const pid = Number(fs.readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  };
  /** The postmaster's process group: Patroni starts it in a session of its own, with its backends. */
  const postmasterGroup = (node: { dataDir: string }): number | null => {
    const pid = postmasterPid(node);
    if (!pid) return null;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so after ')'.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    } catch {
      return null;
    }
  };
  const signalNode = (node: { name: string; dataDir: string }, signal: NodeJS.Signals) => {
    const patroni = patronis.get(node.name);
    const groups = [patroni?.pid, postmasterGroup(node)].filter((g): g is number => !!g);
    for (const group of groups) {
      try {
        process.kill(-group, signal);
      } catch {
        // gone
      }
    }
  };
  const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };

  /** If the test process exits without destroy() (a crash, a cancelled run): nothing left behind. */
  const killAllNow = () => {
    for (const node of nodes) signalNode(node, 'SIGKILL');
    for (const { child } of children) killGroup(child, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killAllNow);

  const logs = () =>
    children
      .map(({ name, log }) => {
        const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
        return `--- ${name} ---\n${text.slice(-4_000)}`;
      })
      .join('\n');

  const destroy = async () => {
    process.off('exit', killAllNow);
    for (const node of nodes) signalNode(node, 'SIGCONT'); // a frozen process handles no SIGTERM
    // Patroni first, with SIGTERM: it stops its PostgreSQL and leaves etcd a clean state.
    const patronis = children.filter((c) => c.name.startsWith('patroni-') && !exited(c.child));
    for (const { child } of patronis) killGroup(child, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && patronis.some(({ child }) => !exited(child))) await sleep(100);
    for (const { child } of children) killGroup(child, 'SIGKILL');
    // Patroni runs each postmaster in a session of its own: one it left running is killed here.
    for (const node of nodes) {
      const pid = postmasterPid(node);
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // not running
        }
      }
    }
    await Promise.all(
      children
        .filter(({ child }) => !exited(child))
        .map(({ child }) => new Promise((r) => child.once('exit', r))),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    launch(
      'etcd',
      'etcd',
      [
        '--name=etcd1',
        `--data-dir=${path.join(dir, 'etcd')}`,
        `--listen-client-urls=http://127.0.0.1:${ports.etcdClient}`,
        `--advertise-client-urls=http://127.0.0.1:${ports.etcdClient}`,
        `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
        `--initial-cluster=etcd1=http://127.0.0.1:${ports.etcdPeer}`,
      ],
      {},
      false,
    );
    // Patroni runs as the postgres user, who may not read the checkout (a clone in a 0700 temp
    // folder, as CI makes): it reads a copy in the set-up's own folder.
    const patroniYml = path.join(dir, 'patroni.yml');
    fs.copyFileSync(path.join(deployDir, 'patroni.yml'), patroniYml);
    if (asRoot) spawnSync('chown', ['postgres:postgres', patroniYml]);
    for (const n of nodes) {
      fs.mkdirSync(path.dirname(n.dataDir), { recursive: true });
      if (asRoot) spawnSync('chown', ['postgres:postgres', path.dirname(n.dataDir)]);
      patronis.set(
        n.name,
        launch(
          `patroni-${n.name}`,
          'patroni',
          [patroniYml],
          {
            PATRONI_NAME: n.name,
            PATRONI_RESTAPI_LISTEN: `127.0.0.1:${n.apiPort}`,
            PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${n.apiPort}`,
            PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${n.pgPort}`,
            PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${n.pgPort}`,
            PATRONI_POSTGRESQL_DATA_DIR: n.dataDir,
            PATRONI_POSTGRESQL_BIN_DIR: binDir,
            PATRONI_POSTGRESQL_PGPASS: path.join(path.dirname(n.dataDir), 'pgpass'),
            PATRONI_ETCD3_HOSTS: `127.0.0.1:${ports.etcdClient}`,
            PATRONI_SUPERUSER_PASSWORD: superuserPassword,
            PATRONI_REPLICATION_PASSWORD: replicationPassword,
          },
          true,
        ),
      );
    }
    launch(
      'haproxy',
      'haproxy',
      ['-db', '-f', path.join(deployDir, 'haproxy.cfg')],
      {
        MEDLEDGER_DB_BIND: `127.0.0.1:${ports.proxy}`,
        PG_NODE1: `127.0.0.1:${nodes[0].pgPort}`,
        PG_NODE2: `127.0.0.1:${nodes[1].pgPort}`,
        PATRONI_API1: String(nodes[0].apiPort),
        PATRONI_API2: String(nodes[1].apiPort),
      },
      false,
    );
  } catch (err) {
    await destroy();
    throw err;
  }

  const url = `postgres://postgres:${superuserPassword}@127.0.0.1:${ports.proxy}/postgres`;
  return {
    url,
    nodes: patroniNodes,
    members,
    logs,
    destroy,
    freeze: (node) => signalNode(node, 'SIGSTOP'),
    thaw: (node) => signalNode(node, 'SIGCONT'),
    killPostmaster: (node) => {
      const pid = postmasterPid(node);
      if (!pid) throw new Error(`${node.name} has no postmaster running`);
      process.kill(pid, 'SIGKILL');
      return pid;
    },
    waitUntilReplicated: async (timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const dead = children.find(({ child }) => exited(child));
        if (dead) throw new Error(`${dead.name} exited:\n${logs()}`);
        const now = await members();
        const leader = now.find((m) => m.role === 'leader' && m.state === 'running');
        const standby = now.find(
          (m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state),
        );
        if (leader && standby && (await reachesPrimary(url))) {
          const byName = (name: string) => patroniNodes.find((n) => n.name === name)!;
          return { leader: byName(leader.name), standby: byName(standby.name) };
        }
        if (Date.now() > deadline) {
          throw new Error(`no replicated pair in ${timeoutMs} ms: ${JSON.stringify(now)}\n${logs()}`);
        }
        await sleep(250);
      }
    },
  };
}

/** Whether a connection through `url` (HAProxy) reaches a writable server. */
async function reachesPrimary(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
    return rows[0].recovery === false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
