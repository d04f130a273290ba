// Statements per request, counted at the storage contract (all/one/value/run): on
// PostgreSQL each is a round trip, and under load the round trips are the throughput. An
// API key's lookup reads its tenant's status with it, and a key read within the last second
// is not read again (services/auth/key-cache.ts); GET /nodes/{id} reads the node with its
// PARA assignments (which give para_item_ids too) and its highlights; a list page is
// not read a second time to be shown, and a page's rows carry their PARA ids; the webhook
// outbox of a write opens no savepoint and reads nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/store/contract.js';
import { currentStatementScope } from '../../src/db/store/statement-scope.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

function countStatements(db: Database): { n: number } {
  const counter = { n: 0 };
  const target = db as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  let inside = false; // a store's one() may call its own all(): one statement
  for (const m of ['all', 'one', 'value', 'run']) {
    const orig = target[m];
    target[m] = async function (this: unknown, ...a: unknown[]) {
      // Only a request's own (a job's or a timer's run outside any request's scope).
      if (inside || !currentStatementScope()) return await orig.apply(this, a);
      counter.n++;
      inside = true;
      const p = orig.apply(this, a);
      inside = false;
      return await p;
    };
  }
  return counter;
}

describe('statements per request', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('GET /nodes/{id}: the node with its assignments and its highlights — one statement (the key was read by the request before)', async () => {
    const area = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Garden' })).json();
    const node = await (await t.req('POST', '/api/v1/nodes', { title: 'Compost', content: 'Turn the heap weekly.', para_item_ids: [area.id] })).json();
    expect((await t.req('POST', `/api/v1/nodes/${node.id}/highlights`, { text: 'heap weekly' })).status).toBe(201);
    await t.req('GET', `/api/v1/nodes/${node.id}`); // anything a first request warms
    const counter = countStatements(t.s.db);
    const res = await t.req('GET', `/api/v1/nodes/${node.id}`);
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.para_item_ids).toEqual([area.id]);
    expect(body.para_assignments).toEqual([expect.objectContaining({ para_item_id: area.id, source: 'user' })]);
    expect(body.annotations.map((a: { text: string }) => a.text)).toEqual(['heap weekly']);
    expect(counter.n).toBe(1);
  });

  it('reads a key again once it has been held a second, and refuses a revoked key at once', async () => {
    const made = await (await t.req('POST', '/api/v1/auth/api-keys', { name: 'second' })).json();
    const auth = `ApiKey ${made.key}`;
    expect((await t.req('GET', '/api/v1/nodes', undefined, auth)).status).toBe(200);
    const reads = vi.spyOn(t.s.repos.apiKeys, 'findActive');
    expect((await t.req('GET', '/api/v1/nodes', undefined, auth)).status).toBe(200);
    expect(reads).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 1050));
    expect((await t.req('GET', '/api/v1/nodes', undefined, auth)).status).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await t.req('DELETE', `/api/v1/auth/api-keys/${made.id}`)).status).toBe(204);
    expect((await t.req('GET', '/api/v1/nodes', undefined, auth)).status).toBe(401);
    // A wrong secret for a held key is refused: the digest is checked on every request.
    expect((await t.req('GET', '/api/v1/nodes', undefined, `ApiKey ${t.key.split('.')[0]}.wrong`)).status).toBe(401);
  });

  it('POST /nodes: the outbox opens no savepoint and reads no webhook, whether the tenant has one or not', async () => {
    await t.req('POST', '/api/v1/nodes', { title: 'first' });
    // Jobs stopped: the delivery stays pending (its job would try to send it).
    await t.s.queue.stop();
    // Transactions opened by the outbox (a nested one is a savepoint: two round trips on
    // PostgreSQL); by stack, so another caller's on the same store is not counted.
    const orig = t.s.db.withTx.bind(t.s.db);
    let byOutbox = 0;
    vi.spyOn(t.s.db, 'withTx').mockImplementation(((fn: never) => {
      if (/webhooks(\/outbox|\.repo)/.test(new Error().stack ?? '')) byOutbox++;
      return orig(fn);
    }) as never);
    const reads = vi.spyOn(t.s.repos.webhooks, 'list');
    const counter = countStatements(t.s.db);
    const res = await t.req('POST', '/api/v1/nodes', { title: 'Compost', content: 'Turn the heap weekly.' });
    expect(res.status).toBe(201);
    const without = counter.n;
    // With a webhook subscribed, its delivery and job are written by the same held write
    // (later(), not counted here): no more statements, no transaction of its own.
    expect((await t.req('POST', '/api/v1/webhooks', { url: 'https://example.com/hook', events: ['node.created'] })).status).toBe(201);
    counter.n = 0;
    expect((await t.req('POST', '/api/v1/nodes', { title: 'Tea', content: 'Steep for a day.' })).status).toBe(201);
    expect(counter.n).toBe(without);
    expect(byOutbox).toBe(0);
    expect(reads).not.toHaveBeenCalled();
    const hooks = (await (await t.req('GET', '/api/v1/webhooks')).json()).data;
    const log = (await (await t.req('GET', `/api/v1/webhooks/${hooks[0].id}/deliveries`)).json()).data;
    expect(log.map((d: { event_type: string; status: string }) => [d.event_type, d.status])).toEqual([['node.created', 'pending']]);
  });

  it('GET /nodes (a page of the list): the page with its PARA ids and the count — one statement', async () => {
    const area = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Garden' })).json();
    for (let i = 0; i < 5; i++) await t.req('POST', '/api/v1/nodes', { title: `note ${i}`, ...(i === 3 ? { para_item_ids: [area.id] } : {}) });
    await t.req('GET', '/api/v1/nodes?per_page=3');
    const counter = countStatements(t.s.db);
    const res = await t.req('GET', '/api/v1/nodes?per_page=3');
    const body = await res.json();
    expect(body.data.map((n: { title: string; para_item_ids: string[] }) => [n.title, n.para_item_ids])).toEqual([['note 4', []], ['note 3', [area.id]], ['note 2', []]]);
    expect(body.total).toBe(5);
    expect(counter.n).toBe(1);
    // Past the last page: no row carries the count, read alone.
    const past = await (await t.req('GET', '/api/v1/nodes?per_page=3&page=3')).json();
    expect(past).toMatchObject({ data: [], total: 5 });
  });

  it("a keyword search's rows carry their PARA ids (read with the rows)", async () => {
    const area = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Garden' })).json();
    await t.req('POST', '/api/v1/nodes', { title: 'Compost heap', content: 'Turn it weekly.', para_item_ids: [area.id] });
    await t.req('POST', '/api/v1/nodes', { title: 'Compost tea', content: 'Steep for a day.' });
    const body = await (await t.req('GET', '/api/v1/nodes?query=compost&mode=keyword')).json();
    expect(body.data.map((n: { title: string; para_item_ids: string[] }) => [n.title, n.para_item_ids]).sort()).toEqual([['Compost heap', [area.id]], ['Compost tea', []]]);
  });

  it("a search page's rows carry their highlights (read with the rows, not by a statement of their own)", async () => {
    const heap = await (await t.req('POST', '/api/v1/nodes', { title: 'Compost heap', content: 'Turn it weekly with a fork.' })).json();
    await t.req('POST', '/api/v1/nodes', { title: 'Compost tea', content: 'Steep for a day.' });
    expect((await t.req('POST', `/api/v1/nodes/${heap.id}/highlights`, { text: 'weekly with a fork', note: 'the fork matters' })).status).toBe(201);
    const separate = vi.spyOn(t.s.highlights, 'highlightsFor');
    const body = await (await t.req('GET', '/api/v1/nodes?query=fork&mode=keyword')).json();
    expect(body.data.map((n: { id: string }) => n.id)).toEqual([heap.id]);
    expect(body.data[0].annotation_matches).toEqual([expect.objectContaining({ text: 'weekly with a fork', note: 'the fork matters' })]);
    expect(separate).not.toHaveBeenCalled();
  });

  it("a tenant's first search by meaning measures its semantic gate from the indexes, not with a storage read per probe", async () => {
    await t.s.queue.start();
    for (let i = 0; i < 40; i++) await t.req('POST', '/api/v1/nodes', { title: `Garden note ${i}`, content: `Compost, seedlings and watering schedule number ${i}.` });
    await t.s.queue.idle();
    // Stopped: its polling (a claim and a look for the next job, now and then) is not the gate's.
    await t.s.queue.stop();
    await t.req('GET', '/api/v1/nodes?query=compost&mode=keyword'); // the key and the keyword side warmed
    // The tenant's vector index loaded first: its load reads in time slices (more statements on a busy machine) and is not the gate's.
    await t.s.vectors.warm(t.tenantId);
    const probes = vi.spyOn(t.s.vectors, 'bestSimilarity');
    const first = countStatements(t.s.db);
    const res = await t.req('GET', '/api/v1/nodes?query=how%20do%20seedlings%20grow&mode=semantic');
    expect(res.status).toBe(200);
    const atFirst = first.n;
    // The gate was measured on this first query (one probe per calibration question), not skipped.
    expect(probes.mock.calls.length).toBeGreaterThanOrEqual(30);
    probes.mockClear();
    const second = countStatements(t.s.db);
    await t.req('GET', '/api/v1/nodes?query=when%20to%20water%20the%20garden&mode=semantic');
    expect(probes).not.toHaveBeenCalled();
    // The gate's sixty probes (measured once, on the first query) add no statement each:
    // only the sample of note lengths it reads once, and the kept gate looked for and
    // written (semantic_gates); sixty probes reading storage would be sixty more.
    expect(atFirst - second.n).toBeLessThanOrEqual(4);
  });

  it("a suspended tenant's key is still refused with the status read alongside it", async () => {
    const other = await t.tenant('beta');
    expect((await t.req('GET', '/api/v1/nodes', undefined, other.auth)).status).toBe(200);
    await t.s.tenantAdmin.suspend(other.tenantId);
    const res = await t.req('GET', '/api/v1/nodes', undefined, other.auth);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('tenant_suspended');
  });
});
