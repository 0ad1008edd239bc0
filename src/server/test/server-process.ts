// A real server process (`src/server/main.ts` through tsx) for tests that need more than one
// process on one database and one storage folder: started on a free port, stopped with SIGTERM
// (or killed), its output kept for the failure message.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../../scripts/free-port.js';

export interface ServerProcess {
  url: string;
  output(): string;
  /** SIGTERM (graceful) or SIGKILL; resolves once the process has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(path.resolve('node_modules/.bin/tsx'), ['src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVE_CLIENT: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', () => {
      if (output.includes('MedLedger is running at')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(force);
    },
  };
}
