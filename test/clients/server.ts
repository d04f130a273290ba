// A real Rhizome server in a child process (`node bin/rhizome.js serve`) with its own
// temp data folder, and a runner for CLI commands against it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/rhizome.js');

export interface ChildServer {
  url: string;
  dataDir: string;
  /** The key the server wrote to DATA_DIR/credentials on first start. */
  apiKey: string;
  /** Everything the server wrote to stdout and stderr so far. */
  log(): string;
  /** CLI environment: this server, an empty config dir, no token unless given. */
  env(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

const portFree = (port: number) =>
  new Promise<boolean>((done) => {
    const probe = createServer().once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });

/** A port nothing listens on right now (for "server unreachable" cases and fixtures). */
export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export async function waitForFreePort(port: number): Promise<void> {
  for (let waited = 0; !(await portFree(port)); waited += 500) {
    if (waited > 90_000) throw new Error(`port ${port} stayed busy`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A server on a free port (0: the system picks; the child's "listening" line names it). */
export async function startChildServer(port = 0, serverEnv: Record<string, string> = {}): Promise<ChildServer> {
  if (port !== 0) await waitForFreePort(port);
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-cli-'));
  const configDir = mkdtempSync(join(tmpdir(), 'rhizome-cfg-'));
  let url = '';
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    cwd: dataDir,
    env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: String(port), RHIZOME_HOST: '127.0.0.1', RHIZOME_LOG: 'info', RHIZOME_SYNCHRONOUS: 'NORMAL', ...serverEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    // Only our own child's "listening" line proves the port is ours; then /health for the model.
    const heard = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
    if (heard && (port === 0 || Number(heard[2]) === port)) url = heard[1];
    if (url) try {
      // The model state is shown to a caller with credentials only.
      const key = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')).api_key as string;
      const res = await fetch(`${url}/health`, { headers: { Authorization: `ApiKey ${key}` } });
      if (res.ok) {
        const h = (await res.json()) as { embedding: { state: string } };
        if (h.embedding.state !== 'loading') break;
      }
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const apiKey = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')).api_key as string;
  return {
    url,
    dataDir,
    apiKey,
    log: () => out,
    env: (extra = {}) => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('RHIZOME_')) env[k] = v;
      return { ...env, RHIZOME_API_URL: url, RHIZOME_DATA_DIR: dataDir, RHIZOME_CONFIG_DIR: configDir, ...extra };
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rhizome ARGS` to completion; `input` is written to its stdin. */
export function runCli(args: string[], env: Record<string, string>, input?: string, cwd = ROOT): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
