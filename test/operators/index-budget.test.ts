// Indexes by use under one memory budget, through HTTP as tenants use them: a tenant's
// vector index loads on its first request, the least recently used is evicted when the
// budget is exceeded, a cold tenant's searches are answered exactly from storage while a
// large index loads in the background, and /metrics counts the loads and evictions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExactScan } from '../../src/vectors/exact-scan.js';
import { startBackground } from '../../src/wiring.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { operatorAuth, sample } from './helpers.js';

let t: TestApp;
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const NOTES = [
  'Compost heap temperature reaches sixty degrees in summer',
  'Tomato seedlings need hardening off before planting out',
  'Rust ownership rules: each value has a single owner',
  'Sourdough starter wants rye flour and a warm kitchen',
  'Index funds spread savings across the whole market',
  'Bicycle chain lubrication every few hundred kilometres',
];

async function seed(auth?: string) {
  for (const n of NOTES) expect((await t.req('POST', '/api/v1/nodes', { title: n.split(' ').slice(0, 3).join(' '), content: n }, auth)).status).toBe(201);
}

async function search(q: string, auth?: string) {
  const res = await t.req('GET', `/api/v1/nodes?mode=semantic&query=${encodeURIComponent(q)}`, undefined, auth);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ id: string }> }).data.map((n) => n.id);
}

describe('vector indexes by use', () => {
  it('at start-up loads tenants until the budget is full; the first stays even when it alone exceeds it', async () => {
    // A budget of one byte: the first tenant listed (alpha) fills it on its own.
    t = await makeTestApp({ config: { indexMemoryBytes: 1 } });
    await t.s.queue.start();
    const b = await t.tenant('beta');
    await seed();
    await seed(b.auth);
    // Enough notes for alpha's semantic gate to be measured (MIN_PROBED_NOTES).
    for (let i = 0; i < 30; i++) await t.req('POST', '/api/v1/nodes', { title: `Garden note ${i}`, content: `Compost and seedlings, entry ${i}.` });
    await t.s.queue.idle();
    t.s.vectors.resetIndexes();
    await startBackground(t.s);
    await vi.waitFor(() => expect(t.log.lines.some((l) => /semantic index ready/.test(l))).toBe(true), { timeout: 10_000 });
    // Held whole, not read and dropped; the next one was not loaded. Its gate is measured next.
    expect([...t.s.vectors.heldBytes().keys()]).toEqual([t.tenantId]);
    await vi.waitFor(async () => expect(await t.s.repos.semanticGates.get(t.tenantId)).not.toBeNull());
  });

  it('loads a tenant on its first request and evicts the least recently used beyond the budget', async () => {
    // A budget of one byte: only the tenant in use is ever held.
    t = await makeTestApp({ config: { indexMemoryBytes: 1 } });
    await t.s.queue.start();
    const op = await operatorAuth(t);
    const b = await t.tenant('beta');
    await seed();
    await seed(b.auth);
    await t.s.queue.idle();
    t.s.vectors.resetIndexes();

    const first = await search('warm kitchen rye flour starter');
    expect(first.length).toBeGreaterThan(0);
    expect([...t.s.vectors.heldBytes().keys()]).toEqual([t.tenantId]);

    await search('warm kitchen rye flour starter', b.auth);
    expect([...t.s.vectors.heldBytes().keys()]).toEqual([b.tenantId]); // alpha, least recently used, evicted

    // Alpha comes back: loaded again, the same answer.
    expect(await search('warm kitchen rye flour starter')).toEqual(first);
    const text = await (await t.req('GET', '/metrics', undefined, op)).text();
    expect(sample(text, 'rhizome_index_loads_total', { index: 'vector' })).toBe(3);
    expect(sample(text, 'rhizome_index_evictions_total', { index: 'vector' })).toBe(2);
    expect(sample(text, 'rhizome_index_budget_bytes')).toBe(1);
  });

  it('answers a cold tenant exactly from storage while its index loads in the background', async () => {
    // Every tenant counts as large here: it loads in the background.
    t = await makeTestApp({ config: { indexMemoryBytes: 64 * 1024 * 1024, tuning: { indexLoadInRequestMax: 0 } } });
    await t.s.queue.start();
    await seed();
    await t.s.queue.idle();
    t.s.vectors.resetIndexes();

    const v = await t.s.embedding.embedQuery('warm kitchen rye flour starter');
    const exact = (await t.s.vectors.knnExact(t.tenantId, v!, NOTES.length)).map((h) => h.id);
    const fromStorage = vi.spyOn(ExactScan.prototype, 'nearest');
    const cold = await search('warm kitchen rye flour starter');
    expect(fromStorage).toHaveBeenCalled(); // answered from storage: the request did not wait for the index
    expect(cold.length).toBeGreaterThan(0);
    expect(cold).toEqual(exact.slice(0, cold.length)); // the exact order, from storage
    // The load finishes in the background; the index then answers alike.
    for (let i = 0; i < 200 && (await t.s.vectors.isLoading(t.tenantId)); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await t.s.vectors.isLoading(t.tenantId)).toBe(false);
    expect(t.s.vectors.heldBytes().get(t.tenantId)).toBeGreaterThan(0);
    fromStorage.mockClear();
    expect(await search('warm kitchen rye flour starter')).toEqual(cold);
    expect(fromStorage).not.toHaveBeenCalled(); // now from the index
  });
});
