// Where the load bench sends its traffic (RHIZOME_LOAD_TARGETS, comma-separated):
//   sqlite          one `rhizome serve` on a copy of the seeded data folder's SQLite file (the default)
//   postgres        one process on a fresh copy of the seeded notebook in PostgreSQL
//   postgres-nginx  two processes on one such database behind nginx, routed by
//                   deploy/nginx/rhizome.conf as shipped (only its `server` and `listen` lines changed)
// nginx sends each API key to one process (docs/routing.md), so traffic through it rotates
// over keys of the tenant chosen so that each process gets the same number of them: both
// processes serve the one notebook, as two processes serve many tenants.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Tuning } from '../../src/config.js';
import { NGINX, startNginx } from '../../test/helpers/nginx.js';
import type { PgSeeds } from './postgres.js';
import { cloneDataDir, startServer, type BenchServer } from './server.js';

export const TARGETS = ['sqlite', 'postgres', 'postgres-nginx'] as const;
export type TargetName = (typeof TARGETS)[number];

export interface Target extends BenchServer {
  target: TargetName;
  processes: number;
  /** The server processes' pids (for the CPU figures). */
  pids: number[];
  /** The API keys the traffic rotates over (one key outside nginx). */
  keys: string[];
  /** Behind nginx: how many of the keys each process (X-Rhizome-Instance) serves. */
  routed?: Record<string, number>;
  /** How long the warm-up took: one hybrid search per key, so each process has loaded the tenant's indexes before the clock runs. */
  warmup_ms: number;
}

/** Keys per process behind nginx: enough that the rotation spreads each process's share evenly. */
const KEYS_PER_PROCESS = 4;

export function targetsFrom(spec: string): TargetName[] {
  const names = spec.split(',').map((t) => t.trim()).filter(Boolean);
  for (const n of names) if (!(TARGETS as readonly string[]).includes(n)) throw new Error(`RHIZOME_LOAD_TARGETS: unknown target ${n} (known: ${TARGETS.join(', ')})`);
  if (names.includes('postgres-nginx') && !NGINX) throw new Error('RHIZOME_LOAD_TARGETS: postgres-nginx needs nginx (apt-get install nginx)');
  return names as TargetName[];
}

export async function startTarget(name: TargetName, root: string, tuning: Tuning, seededDir: string, pg: PgSeeds | null): Promise<Target> {
  const t = await start(name, root, tuning, seededDir, pg);
  const began = Date.now();
  try {
    for (const key of t.keys) {
      const res = await fetch(`${t.url}/api/v1/nodes?mode=hybrid&per_page=10&query=warm+up`, { headers: { Authorization: `ApiKey ${key}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`warm-up search: ${res.status}`);
    }
  } catch (e) {
    await t.stop();
    throw e;
  }
  return { ...t, warmup_ms: Date.now() - began };
}

async function start(name: TargetName, root: string, tuning: Tuning, seededDir: string, pg: PgSeeds | null): Promise<Omit<Target, 'warmup_ms'>> {
  if (name === 'sqlite') {
    const s = await startServer(root, tuning, cloneDataDir(seededDir));
    return { ...s, target: name, processes: 1, pids: [s.pid], keys: [s.key], stop: async () => (await s.stop(), rmSync(s.dataDir, { recursive: true, force: true })) };
  }
  if (!pg) throw new Error(`target ${name} needs RHIZOME_LOAD_DATABASE_URL (a PostgreSQL server on which the bench may create databases)`);
  const db = await pg.fresh();
  const dirs: string[] = [];
  const onPg = async () => {
    const dir = pg.dataDir();
    dirs.push(dir);
    return await startServer(root, tuning, dir, { RHIZOME_DATABASE_URL: db.url });
  };
  const servers: BenchServer[] = [];
  const cleanUp = async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await db.drop();
  };
  try {
    if (name === 'postgres') {
      const s = await onPg();
      servers.push(s);
      return { ...s, target: name, processes: 1, pids: [s.pid], keys: [s.key], stop: cleanUp };
    }
    // One after the other: two model workers loading at once would only slow each other.
    servers.push(await onPg());
    servers.push(await onPg());
    const template = readFileSync(join(root, 'deploy/nginx/rhizome.conf'), 'utf8');
    const proxy = await startNginx((port) => routing(template, port, servers.map((s) => s.url)));
    const { keys, routed } = await keysSpreadOver(proxy.url, servers[0], servers.length);
    const stop = async () => {
      await proxy.stop();
      rmSync(proxy.dir, { recursive: true, force: true });
      await cleanUp();
    };
    return { ...servers[0], url: proxy.url, target: name, processes: servers.length, pids: servers.map((s) => s.pid), keys, routed, stop };
  } catch (e) {
    await cleanUp().catch(() => {});
    throw e;
  }
}

/** The shipped template with these processes in its upstream and this port in its listen line; nothing else changed. */
export function routing(template: string, port: number, upstreams: string[]): string {
  const lines = template.split('\n');
  const servers = lines.filter((l) => /^\s*server 127\.0\.0\.1:\d+ /.test(l));
  if (servers.length === 0 || !/^\s*listen 80;$/m.test(template)) throw new Error('deploy/nginx/rhizome.conf: no `server 127.0.0.1:…` or `listen 80;` line to replace');
  const options = servers[0].trim().split(' ').slice(2).join(' ');
  const out = lines
    .filter((l) => !servers.includes(l) || l === servers[0])
    .join('\n')
    .replace(servers[0], upstreams.map((u) => `    server ${new URL(u).host} ${options}`).join('\n'));
  return out.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
}

/**
 * Keys of the seeded tenant, KEYS_PER_PROCESS landing on each process through the proxy
 * (X-Rhizome-Instance says which), interleaved so that a rotation alternates processes.
 */
async function keysSpreadOver(proxyUrl: string, first: BenchServer, processes: number): Promise<{ keys: string[]; routed: Record<string, number> }> {
  const byInstance = new Map<string, string[]>();
  const place = async (key: string) => {
    const res = await fetch(`${proxyUrl}/api/v1/auth/api-keys`, { headers: { Authorization: `ApiKey ${key}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`routing probe: ${res.status}`);
    const at = res.headers.get('x-rhizome-instance') ?? '?';
    byInstance.set(at, [...(byInstance.get(at) ?? []), key]);
  };
  const full = () => byInstance.size === processes && [...byInstance.values()].every((k) => k.length >= KEYS_PER_PROCESS);
  await place(first.key);
  for (let i = 0; !full(); i++) {
    if (i >= 20 * processes * KEYS_PER_PROCESS) throw new Error(`nginx sent ${i + 1} keys to ${byInstance.size} of ${processes} processes`);
    const res = await fetch(`${first.url}/api/v1/auth/api-keys`, {
      method: 'POST',
      headers: { Authorization: `ApiKey ${first.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `load bench ${i + 1}` }),
    });
    if (res.status !== 201) throw new Error(`creating a key: ${res.status} ${await res.text()}`);
    await place(((await res.json()) as { key: string }).key);
  }
  const lists = [...byInstance.values()].map((k) => k.slice(0, KEYS_PER_PROCESS));
  return {
    keys: Array.from({ length: KEYS_PER_PROCESS }, (_, i) => lists.map((l) => l[i])).flat(),
    routed: Object.fromEntries([...byInstance.keys()].map((at) => [at, KEYS_PER_PROCESS])),
  };
}
