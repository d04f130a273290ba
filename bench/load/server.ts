// A real `rhizome serve` child process for the load bench: its own data folder, a free
// port, the bundled model. Seeding goes through the HTTP API (so vectors come from the
// real model) and waits until the tenant's embedding queue is empty.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tuning } from '../../src/config.js';
import type { LoadNote } from './corpus.js';

export interface BenchServer {
  url: string;
  key: string;
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
}

/** RHIZOME_LOAD_NODE_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=prof`. */
const nodeArgs = () => (process.env.RHIZOME_LOAD_NODE_ARGS ?? '').split(' ').filter(Boolean);

/**
 * `tuning`: what the configuration under test changes (dist/serve-tuned.js injects it);
 * `env`: more of the server's environment (RHIZOME_DATABASE_URL for the PostgreSQL targets).
 */
export async function startServer(root: string, tuning: Tuning, dataDir = mkdtempSync(join(tmpdir(), 'rhizome-load-')), env: Record<string, string> = {}): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs(), join(root, 'dist/serve-tuned.js'), JSON.stringify({ tuning })], {
    cwd: dataDir,
    // Private fetches allowed: the feeds-200 configuration's feed server is on loopback (no other configuration fetches).
    env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: '0', RHIZOME_HOST: '127.0.0.1', RHIZOME_LOG: 'info', RHIZOME_ALLOW_PRIVATE_FETCH: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // Kept short: the start-up lines and the first errors, not hours of log.
  const keep = (d: Buffer) => void (out.length < 64_000 && (out += d));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 120_000;
  let url = '';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    url ||= /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
    if (url) {
      const key = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')).api_key as string;
      const h = await health(url, key).catch(() => null);
      if (h && h.embedding.state === 'ready') {
        return {
          url,
          key,
          dataDir,
          pid: child.pid!,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        };
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function health(url: string, key: string): Promise<{ embedding: { state: string }; jobs: { queued: number } }> {
  const res = await fetch(`${url}/health`, { headers: { Authorization: `ApiKey ${key}` } });
  if (!res.ok) throw new Error(`health ${res.status}`);
  return (await res.json()) as { embedding: { state: string }; jobs: { queued: number } };
}

/** Creates the notes (8 at a time) and returns their ids once every one has its vector. */
export async function seed(s: BenchServer, notes: LoadNote[]): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < notes.length) {
      const n = notes[next++];
      const res = await fetch(`${s.url}/api/v1/nodes`, {
        method: 'POST',
        headers: { Authorization: `ApiKey ${s.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(n),
      });
      if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await drained(s);
  return ids;
}

/**
 * Waits until the tenant's job queue is empty (embeddings of everything written), or down to
 * `standing` jobs that are always there (each followed feed keeps its next poll queued).
 */
export async function drained(s: BenchServer, timeoutMs = 600_000, standing = 0): Promise<number> {
  const started = Date.now();
  for (;;) {
    const h = await health(s.url, s.key);
    if (h.jobs.queued <= standing) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`queue not drained: ${h.jobs.queued} left`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A copy of a stopped server's data folder, so every configuration starts from the same data. */
export function cloneDataDir(from: string): string {
  const to = mkdtempSync(join(tmpdir(), 'rhizome-load-'));
  cpSync(from, to, { recursive: true });
  return to;
}
