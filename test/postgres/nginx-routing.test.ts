// deploy/nginx/rhizome.conf as shipped, in a real nginx in front of two `rhizome serve`
// processes on one PostgreSQL database: each API key's requests, and every access token of
// a tenant (two users, refreshed), land on one process (X-Rhizome-Instance says which);
// the keys spread over both; when one process is killed, its tenants' requests — reads and
// writes — keep succeeding on the other, and the other's tenants do not move.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startNginx, type RunningNginx } from '../helpers/nginx.js';
import { cli, credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { createTestDatabase, PG_URL, until, type TestPgDatabase } from './helpers.js';

const describeRouted = NGINX && PG_URL ? describe : describe.skip;
const TEMPLATE = readFileSync('deploy/nginx/rhizome.conf', 'utf8');

/** The template with our processes in its upstream and our port in its listen line; nothing else changed. */
function render(port: number, upstreams: string[]): string {
  const lines = TEMPLATE.split('\n');
  const servers = lines.filter((l) => /^\s*server 127\.0\.0\.1:\d+ /.test(l));
  expect(servers).toHaveLength(2);
  const options = servers[0].trim().split(' ').slice(2).join(' ');
  let out = lines.filter((l) => !servers.includes(l) || l === servers[0]).join('\n');
  out = out.replace(servers[0], upstreams.map((u) => `    server ${new URL(u).host} ${options}`).join('\n'));
  expect(out).toMatch(/^\s*listen 80;$/m);
  return out.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
}

describeRouted('tenants routed to one process by nginx (deploy/nginx/rhizome.conf)', () => {
  let db: TestPgDatabase;
  let a: ChildServer;
  let b: ChildServer;
  let proxy: RunningNginx;
  let operator: string;
  const env = (dir: string) => ({ RHIZOME_DATABASE_URL: db.url, RHIZOME_DATA_DIR: dir });
  const instanceOf = new Map<string, 'a' | 'b'>();

  beforeAll(async () => {
    db = await createTestDatabase();
    const dirA = tempDataDir();
    a = await startServer(dirA, 0, { RHIZOME_DATABASE_URL: db.url });
    b = await startServer(tempDataDir(), 0, { RHIZOME_DATABASE_URL: db.url });
    for (const [name, srv] of [['a', a], ['b', b]] as const) instanceOf.set((await fetch(`${srv.url}/health`)).headers.get('x-rhizome-instance')!, name);
    expect(instanceOf.size).toBe(2);
    proxy = await startNginx((port) => render(port, [a.url, b.url]));
    // The operator key, made as an operator makes it: the CLI, on the server's database.
    const made = await cli(['operator', 'create-key', '--name', 'routing-test', '--json'], env(dirA));
    expect(made.code, made.stderr).toBe(0);
    operator = `ApiKey ${JSON.parse(made.stdout).key}`;
    expect(credentials(dirA).api_key).toMatch(/^key_/);
  }, 180_000);
  afterAll(async () => {
    await proxy?.stop();
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  const via = async (auth: string | null, path = '/api/v1/nodes', init: RequestInit = {}) => {
    const res = await fetch(`${proxy.url}${path}`, { ...init, headers: { ...(auth ? { Authorization: auth } : {}), 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) } });
    await res.arrayBuffer();
    return { status: res.status, on: instanceOf.get(res.headers.get('x-rhizome-instance') ?? '') };
  };
  const keys: Array<{ name: string; auth: string; on?: 'a' | 'b' }> = [];

  it('sends every request of one API key to one process, and spreads keys over both', async () => {
    for (let i = 0; i < 16; i++) {
      const res = await fetch(`${proxy.url}/api/v1/admin/tenants`, { method: 'POST', headers: { Authorization: operator, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: `team-${i}` }) });
      expect(res.status).toBe(201);
      keys.push({ name: `team-${i}`, auth: `ApiKey ${((await res.json()) as { api_key: string }).api_key}` });
    }
    for (const k of keys) {
      const seen = new Set<string | undefined>();
      for (let i = 0; i < 6; i++) {
        const r = await via(k.auth);
        expect(r.status).toBe(200);
        seen.add(r.on);
      }
      expect(seen.size, k.name).toBe(1);
      k.on = [...seen][0] as 'a' | 'b';
    }
    expect(new Set(keys.map((k) => k.on))).toEqual(new Set(['a', 'b']));
    // Requests without credentials hash on the client's address: one process for us too.
    const anon = new Set<string | undefined>();
    for (let i = 0; i < 6; i++) anon.add((await via(null, '/health')).on);
    expect(anon.size).toBe(1);
  }, 120_000);

  it("sends every access token of a tenant to one process: two users, and after a refresh", async () => {
    const dir = tempDataDir();
    for (const email of ['ada@example.com', 'bob@example.com']) {
      const r = await cli(['users', 'add', email, '--tenant', 'team-0'], env(dir));
      expect(r.code, r.stderr).toBe(0);
    }
    const tokens: string[] = [];
    let refresh = '';
    for (const email of ['ada@example.com', 'bob@example.com']) {
      expect((await via(null, '/api/v1/auth/magic-link', { method: 'POST', body: JSON.stringify({ email }) })).status).toBe(202);
      // The log mailer writes the link to the log of the process that took the request.
      const mailed = new RegExp(`mail to ${email.replace('.', '\\.')}[\\s\\S]*?login\\?token=([A-Za-z0-9_-]+)`);
      const token = await until('the sign-in link in a server log', async () => mailed.exec(a.stderr())?.[1] ?? mailed.exec(b.stderr())?.[1], 10_000);
      const res = await fetch(`${proxy.url}/api/v1/auth/magic-link/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
      expect(res.status).toBe(200);
      const pair = (await res.json()) as { access_token: string; refresh_token: string };
      tokens.push(pair.access_token);
      refresh = pair.refresh_token;
    }
    const res = await fetch(`${proxy.url}/api/v1/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: refresh }) });
    expect(res.status).toBe(200);
    tokens.push(((await res.json()) as { access_token: string }).access_token);
    const seen = new Set<string | undefined>();
    for (const token of tokens) {
      for (let i = 0; i < 4; i++) {
        const r = await via(`Bearer ${token}`);
        expect(r.status).toBe(200);
        seen.add(r.on);
      }
    }
    expect(seen.size).toBe(1);
  }, 60_000);

  it('a killed process: its tenants carry on through the other (reads and writes), the other\'s stay put', async () => {
    const onA = keys.filter((k) => k.on === 'a');
    const onB = keys.filter((k) => k.on === 'b');
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
    await a.kill();
    const failures: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const k of onA) {
        const read = await via(k.auth);
        const write = await via(k.auth, '/api/v1/nodes', { method: 'POST', body: JSON.stringify({ title: `written after the kill ${round}` }) });
        if (read.status !== 200 || read.on !== 'b') failures.push(`${k.name} read → ${read.status} on ${read.on}`);
        if (write.status !== 201 || write.on !== 'b') failures.push(`${k.name} write → ${write.status} on ${write.on}`);
      }
      for (const k of onB) {
        const r = await via(k.auth);
        if (r.status !== 200 || r.on !== 'b') failures.push(`${k.name} (on b) → ${r.status} on ${r.on}`);
      }
    }
    expect(failures).toEqual([]);
    // Each write happened once.
    for (const k of onA) {
      const list = await fetch(`${proxy.url}/api/v1/nodes?per_page=1`, { headers: { Authorization: k.auth } });
      expect(((await list.json()) as { total: number }).total, k.name).toBe(3);
    }
  }, 60_000);
});
