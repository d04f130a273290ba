// Runs the real `rhizome` binary (dist/, built by the vitest global setup) as a child process.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { RateLimits, Tuning } from '../../src/config.js';

export const BIN = resolve('bin/rhizome.js');
const execFileP = promisify(execFile);

export interface ChildServer {
  proc: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** kill -9 and wait for exit. */
  kill(): Promise<void>;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'rhizome-proc-'));
}

/** Tuning no variable sets, injected by dist/serve-tuned.js (bench/serve-tuned.ts) instead of `rhizome serve`. */
export interface Tuned {
  tuning?: Tuning;
  limits?: Partial<RateLimits>;
}

/** port 0 (the default) lets the system pick a free port; the child's "listening" line names it. */
export async function startServer(dataDir: string, port = 0, env: Record<string, string> = {}, tuned?: Tuned): Promise<ChildServer> {
  const args = tuned ? [resolve('dist/serve-tuned.js'), JSON.stringify(tuned)] : [BIN, 'serve'];
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: String(port), RHIZOME_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  let url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}): ${err}`);
    // Our own child's "listening" line, not /health: another process could hold the port.
    const heard = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(err);
    if (heard && (port === 0 || Number(heard[2]) === port)) {
      url = heard[1];
      break;
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    proc,
    url,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      proc.kill('SIGTERM');
      return exited;
    },
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

export async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

export function credentials(dataDir: string): { api_key: string; tenant_id: string } {
  return JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8'));
}
