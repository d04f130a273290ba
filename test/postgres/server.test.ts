// The real `rhizome serve` on PostgreSQL (RHIZOME_DATABASE_URL): it refuses to start
// against a database out of reach, serves the API from PostgreSQL, loses nothing it
// acknowledged through kill -9, and rides out the database going away and coming back.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killMidProcessingScenario, slowSite } from '../captures/durability-scenario.js';
import type { Site } from '../captures/helpers.js';
import { cli, credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { createTestDatabase, describePg, until, type TestPgDatabase } from './helpers.js';

const CLUSTER = 'scripts/pg-test-cluster.sh';
const json = { 'content-type': 'application/json' };


describePg('rhizome serve on PostgreSQL', () => {
  const dbs: TestPgDatabase[] = [];
  const servers: ChildServer[] = [];
  let site: Site;
  beforeAll(async () => {
    site = await slowSite();
  });
  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    await site?.close();
    for (const d of dbs) await d.drop();
  });
  const database = async () => {
    const d = await createTestDatabase();
    dbs.push(d);
    return d;
  };

  it('refuses to start when PostgreSQL is out of reach: one line, exit 6, the password masked, nothing created', async () => {
    const dir = tempDataDir();
    const r = await cli(['serve'], { RHIZOME_DATA_DIR: dir, RHIZOME_PORT: '0', RHIZOME_DATABASE_URL: 'postgres://rhizome:s3cret@127.0.0.1:1/rhizome' });
    expect(r.code).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cannot reach PostgreSQL at postgres:\/\/rhizome:\*\*\*@127\.0\.0\.1:1\/rhizome: connection refused/);
    expect(r.stderr).not.toContain('s3cret');
    expect(existsSync(join(dir, 'credentials'))).toBe(false);
    expect(existsSync(join(dir, 'rhizome.db'))).toBe(false);
  });

  it('serves from PostgreSQL: the first tenant, nodes, keyword and semantic search, links', async () => {
    const db = await database();
    const dir = tempDataDir();
    const server = await startServer(dir, 0, { RHIZOME_DATABASE_URL: db.url });
    servers.push(server);
    expect(server.stderr()).toContain('database: PostgreSQL at');
    const auth = { Authorization: `ApiKey ${credentials(dir).api_key}`, ...json };
    const post = async (title: string, content: string) => (await (await fetch(`${server.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title, content }) })).json()).id as string;
    const a = await post('Mycorrhizal networks', 'Fungi link the roots of trees and trade sugar for minerals.');
    const b = await post('Sourdough starter', 'Flour and water, fed daily, keep wild yeast alive.');
    const res = await fetch(`${server.url}/api/v1/nodes/${a}/links`, { method: 'PATCH', headers: auth, body: JSON.stringify({ links: [{ target_id: b, type: 'related' }] }) });
    expect(res.status).toBe(200);
    expect((await (await fetch(`${server.url}/api/v1/nodes/${b}/links`, { headers: auth })).json()).links).toEqual([{ target_id: a, type: 'related' }]);
    // The rows are PostgreSQL's, not a file's.
    const c = await db.client();
    expect((await c.query('SELECT count(*)::int AS n FROM nodes')).rows[0].n).toBe(2);
    expect(existsSync(join(dir, 'rhizome.db'))).toBe(false);
    const search = async (mode: string, q: string) => (await (await fetch(`${server.url}/api/v1/nodes?query=${encodeURIComponent(q)}&mode=${mode}`, { headers: auth })).json()).data.map((n: { id: string }) => n.id) as string[];
    expect(await search('keyword', 'fungi roots')).toEqual([a]);
    // Semantic search once both nodes are embedded (the real model, vectors stored in PostgreSQL).
    await until('vectors', async () => ((await c.query('SELECT count(*)::int AS n FROM node_vectors')).rows[0].n === 2 ? true : undefined));
    expect((await search('semantic', 'bread baking with yeast'))[0]).toBe(b);
    expect((await search('hybrid', 'tree roots and fungus'))[0]).toBe(a);
    const health = await (await fetch(`${server.url}/health`)).json();
    expect(health.status).toBe('ok');
  }, 180_000);

  it('kill -9 mid-processing, restart: every acknowledged capture completes exactly once', async () => {
    const db = await database();
    await killMidProcessingScenario(site, { RHIZOME_DATABASE_URL: db.url });
  }, 360_000);

  it('the database lost while running: 503 problem+json with Retry-After, nothing acknowledged lost, recovery by itself', async () => {
    // A cluster of its own: stopping the tier's server would fail every other test running.
    const env = Object.fromEntries(
      execFileSync('bash', [CLUSTER, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .trim()
        .split('\n')
        .map((l) => /^export (\w+)=(.*)$/.exec(l)!.slice(1, 3)),
    ) as Record<string, string>;
    const pgDir = env.RHIZOME_TEST_PG_DIR;
    const cluster = (op: string) => execFileSync('bash', [CLUSTER, op, pgDir], { stdio: 'ignore' });
    try {
      const dir = tempDataDir();
      const server = await startServer(dir, 0, { RHIZOME_DATABASE_URL: env.RHIZOME_TEST_DATABASE_URL });
      servers.push(server);
      const auth = { Authorization: `ApiKey ${credentials(dir).api_key}`, ...json };
      const create = (title: string) => fetch(`${server.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title, content: `${title} body` }) });
      const before = await create('written before the outage');
      expect(before.status).toBe(201);
      const kept = (await before.json()).id;

      cluster('pause');
      const timed = async (r: () => Promise<Response>) => {
        const t0 = performance.now();
        const res = await r().catch((e: Error) => {
          throw new Error(`${e.message}; the server (exit ${server.proc.exitCode}) said: ${server.stderr().slice(-2000)}`);
        });
        expect(performance.now() - t0, 'the 503 came within 2 s').toBeLessThan(2_000);
        return res;
      };
      const health = await (await timed(() => fetch(`${server.url}/health`, { headers: auth }))).json();
      expect(health).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/database cannot be reached/) });
      for (const res of [await timed(() => fetch(`${server.url}/api/v1/nodes`, { headers: auth })), await timed(() => create('written during the outage'))]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('retry-after')).toBe('5');
        expect((await res.json()).code).toBe('database_unavailable');
      }
      expect(server.proc.exitCode).toBeNull(); // still serving

      cluster('resume');
      const after = await until('a write after the database came back', async () => {
        const r = await create('written after the outage');
        return r.status === 201 ? r : undefined;
      });
      expect(after.status).toBe(201);
      const list = await (await fetch(`${server.url}/api/v1/nodes?per_page=100`, { headers: auth })).json();
      const titles = list.data.map((n: { title: string }) => n.title).sort();
      expect(titles).toEqual(['written after the outage', 'written before the outage']);
      expect(list.data.some((n: { id: string }) => n.id === kept)).toBe(true);
    } finally {
      execFileSync('bash', [CLUSTER, 'stop', pgDir], { stdio: 'ignore' });
    }
  }, 180_000);
});
