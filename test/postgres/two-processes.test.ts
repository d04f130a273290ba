// Two `rhizome serve` processes on one PostgreSQL database behind a real nginx (round
// robin): requests land on either, and the answers are those of one server. Each job runs
// once (a burst of captures becomes exactly one node each), each process's vector index
// follows the other's writes (LISTEN/NOTIFY), and a guesser meets one shared rate limit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startNginx as startNginxWith } from '../helpers/nginx.js';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { createTestDatabase, PG_URL, until, type TestPgDatabase } from './helpers.js';

// nginx from Debian (.ci/run installs it); without it, or without the tier's server, this file is skipped.
const describeTwo = NGINX && PG_URL ? describe : describe.skip;

/** Round robin over the upstreams. */
function startNginx(upstreams: string[]) {
  return startNginxWith((port) => `
  upstream rhizome { ${upstreams.map((u) => `server ${new URL(u).host};`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 50m;
    location / {
      proxy_pass http://rhizome;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
    }
  }`);
}

describeTwo('two processes on one PostgreSQL behind nginx', () => {
  let db: TestPgDatabase;
  let a: ChildServer;
  let b: ChildServer;
  let proxy: Awaited<ReturnType<typeof startNginx>>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const dirA = tempDataDir();
    a = await startServer(dirA, 0, { RHIZOME_DATABASE_URL: db.url, RHIZOME_ALLOW_PRIVATE_FETCH: '1' });
    // The second finds the first's tenant and creates none.
    const dirB = tempDataDir();
    b = await startServer(dirB, 0, { RHIZOME_DATABASE_URL: db.url, RHIZOME_ALLOW_PRIVATE_FETCH: '1' });
    expect(existsSync(join(dirB, 'credentials'))).toBe(false);
    proxy = await startNginx([a.url, b.url]);
    headers = { Authorization: `ApiKey ${credentials(dirA).api_key}`, 'content-type': 'application/json' };
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  const api = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}/api/v1${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const json = async (res: Response | Promise<Response>) => (await res).json();

  it('serves the API through the proxy as one server: nodes, links, PARA, search', async () => {
    const created = await json(api(proxy.url, '/nodes', { method: 'POST', body: JSON.stringify({ title: 'Grafting apple trees', content: 'Whip and tongue grafts in early spring.', tags: ['orchard'] }) }));
    const other = await json(api(proxy.url, '/nodes', { method: 'POST', body: JSON.stringify({ title: 'Pruning plums', content: 'Prune stone fruit in summer.' }) }));
    // Every read, whichever process takes it, sees every acknowledged write.
    for (let i = 0; i < 6; i++) expect((await json(api(proxy.url, `/nodes/${created.id}`))).title).toBe('Grafting apple trees');
    expect((await api(proxy.url, `/nodes/${created.id}/links`, { method: 'PATCH', body: JSON.stringify({ links: [{ target_id: other.id, type: 'related' }] }) })).status).toBe(200);
    for (const base of [a.url, b.url]) expect((await json(api(base, `/nodes/${other.id}/links`))).links).toEqual([{ target_id: created.id, type: 'related' }]);
    const para = await json(api(proxy.url, '/para', { method: 'POST', body: JSON.stringify({ category: 'projects', label: 'Orchard' }) }));
    for (const base of [a.url, b.url]) expect((await json(api(base, `/para/${para.id}`))).label).toBe('Orchard');
    for (const base of [a.url, b.url]) expect((await json(api(base, '/nodes?query=graft&mode=keyword'))).data.map((n: { id: string }) => n.id)).toEqual([created.id]);
    expect((await json(api(proxy.url, '/nodes?tag=orchard'))).total).toBe(1);
  }, 60_000);

  it("keeps each process's vector index current with the other's writes", async () => {
    // Both processes load the tenant's index now (a search by meaning on each)...
    for (const base of [a.url, b.url]) expect((await api(base, '/nodes?query=fruit%20trees&mode=semantic')).status).toBe(200);
    // ...then a node is written and embedded by whichever process claims the job.
    const node = await json(api(a.url, '/nodes', { method: 'POST', body: JSON.stringify({ title: 'Sourdough starter', content: 'Flour and water fed every day keep the wild yeast alive for bread.' }) }));
    const c = await db.client();
    await until('the vector', async () => ((await c.query('SELECT count(*)::int AS n FROM node_vectors v JOIN nodes n ON n.seq = v.seq WHERE n.id = $1', [node.id])).rows[0].n === 1 ? true : undefined), 90_000);
    // Each process finds it by meaning from its own in-memory index (no restart, no reload).
    for (const base of [a.url, b.url]) {
      const top = await until(`${base} to hold the vector`, async () => {
        const hits = (await json(api(base, '/nodes?query=baking%20bread%20with%20yeast&mode=semantic'))).data;
        return hits[0]?.id === node.id ? hits[0].id : undefined;
      }, 10_000);
      expect(top).toBe(node.id);
    }
  }, 120_000);

  it('runs each job once: a burst of captures through the proxy becomes exactly one node each', async () => {
    const before = (await json(api(proxy.url, '/nodes?per_page=1'))).total;
    const posts = await Promise.all(
      Array.from({ length: 24 }, (_, i) => api(proxy.url, '/captures', { method: 'POST', body: JSON.stringify({ title: `Burst ${i}`, content_type: 'note', selected_text: `Burst note ${i}: compost, mulch and soil life number ${i}.`, source: 'api' }) })),
    );
    expect(posts.map((r) => r.status)).toEqual(posts.map(() => 201));
    const ids = await Promise.all(posts.map(async (r) => (await r.json()).id as string));
    const list = await until('every capture processed', async () => {
      const l = await json(api(proxy.url, '/captures?per_page=100'));
      return l.data.every((x: { status: string }) => x.status === 'completed' || x.status === 'failed') ? l : undefined;
    }, 90_000);
    const byId = new Map<string, { status: string; node_id: string }>(list.data.map((x: { id: string; status: string; node_id: string }) => [x.id, x]));
    for (const id of ids) expect(byId.get(id)?.status, `${id}: ${JSON.stringify(list.data.find((x: { id: string }) => x.id === id))}`).toBe('completed');
    expect(new Set(ids.map((id) => byId.get(id)!.node_id)).size).toBe(ids.length);
    expect((await json(api(proxy.url, '/nodes?per_page=1'))).total).toBe(before + ids.length);
    for (const id of ids) {
      const events = (await json(api(proxy.url, `/captures/${id}/activity`))).data as Array<{ kind: string }>;
      expect(events.filter((e) => e.kind === 'completed'), id).toHaveLength(1);
    }
  }, 180_000);

  it('counts failed sign-ins in one place: the 11th wrong secret for a key is refused, whichever process answers', async () => {
    const guess = () => fetch(`${proxy.url}/api/v1/nodes`, { headers: { Authorization: 'ApiKey key_guessedid.wrongsecret' } });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await guess()).status);
    // 10 failures a window per key (README, Reliability): the 11th is 429 though each process saw only about half.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  }, 60_000);
});
