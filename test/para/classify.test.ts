// Background classification with the deterministic HashEmbedder: the rules (orphans only,
// threshold and margin, user associations win, archived items take nothing, tenants apart).
import { raw } from '../helpers/raw.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  // The default settings: calibrated scores mean the same for the test model as for use-lite.
  await t.s.queue.start();
});
afterEach(async () => {
  await t.close();
});

const BREAD = { category: 'resources', label: 'Sourdough bread baking', description: 'sourdough starter, bread dough, baking loaves' };
const BIKE = { category: 'areas', label: 'Bicycle maintenance', description: 'bicycle chain, bicycle brakes, tyres and gears' };

const item = async (body: object, auth?: string) => (await t.req('POST', '/api/v1/para', body, auth)).json();
const node = async (title: string, content = '', para_item_ids: string[] = [], auth?: string) => {
  const res = await t.req('POST', '/api/v1/nodes', { title, content, para_item_ids }, auth);
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
};
const assoc = async (nodeId: string) =>
  await raw(t.s.db).prepare('SELECT para_item_id, source, score, method, model FROM node_para WHERE node_id = ? ORDER BY para_item_id').all(nodeId) as {
    para_item_id: string; source: string; score: number; method: string; model: string;
  }[];
const paraOf = async (id: string, auth?: string) => (await (await t.req('GET', `/api/v1/nodes/${id}`, undefined, auth)).json()).para_item_ids;

describe('automatic PARA classification', () => {
  it('creating an item files fitting orphans, recording score, method and model', async () => {
    const n1 = await node('Sourdough bread baking', 'feeding the sourdough starter before baking bread loaves');
    const n2 = await node('Tax return', 'receipts and deductions for the tax office');
    await t.s.queue.idle();
    const bread = await item(BREAD);
    await t.s.queue.idle();

    expect(await paraOf(n1)).toEqual([bread.id]);
    expect(await paraOf(n2)).toEqual([]);
    const [a] = await assoc(n1);
    expect(a).toMatchObject({ para_item_id: bread.id, source: 'auto', method: 'cosine:label', model: 'hash-64' });
    expect(a.score).toBeGreaterThanOrEqual(0.3);
    expect(a.score).toBeLessThanOrEqual(1);
    // The filed node is no longer an orphan.
    const orphans = (await (await t.req('GET', '/api/v1/nodes?orphan=true')).json()).data.map((n: { id: string }) => n.id);
    expect(orphans).toEqual([n2]);
  });

  it('files nodes created later once their embedding lands, blending in the item centroid', async () => {
    const bread = await item(BREAD);
    const bike = await item(BIKE);
    await node('Seed', 'bread', [bread.id]); // a user association: gives the item a centroid
    await t.s.queue.idle();
    const later = await node('Baking sourdough bread', 'sourdough starter and bread dough');
    const chain = await node('Bicycle chain', 'oil the bicycle chain and check the bicycle brakes');
    await t.s.queue.idle();
    expect(await paraOf(later)).toEqual([bread.id]);
    expect(await paraOf(chain)).toEqual([bike.id]);
    expect((await assoc(later))[0].method).toBe('cosine:label+centroid(1)');
  });

  it('never overrides or duplicates a user association, and never touches a filed node', async () => {
    const bike = await item(BIKE);
    const bread = await item(BREAD);
    const mine = await node('Sourdough bread baking', 'sourdough starter bread loaves', [bike.id]);
    await t.s.queue.idle();
    expect(await paraOf(mine)).toEqual([bike.id]);
    expect(await assoc(mine)).toEqual([{ para_item_id: bike.id, source: 'user', score: null, method: null, model: null }]);
    // Asked directly, the classifier still leaves a non-orphan alone.
    expect(await t.s.paraClassifier.classify(t.tenantId, { node_ids: [mine] })).toEqual([]);
    expect(await t.s.paraClassifier.classify(t.tenantId, { item_id: bread.id })).toEqual([]);
    expect(await assoc(mine)).toHaveLength(1);
  });

  it('leaves a node alone when two items fit it about equally (margin)', async () => {
    // Two folders saying the same thing: the node fits both perfectly, so neither gets it.
    await item({ category: 'resources', label: 'Sourdough bread baking' });
    await item({ category: 'projects', label: 'Sourdough bread baking' });
    const n = await node('Sourdough bread baking', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(await paraOf(n)).toEqual([]);
  });

  it('does not file into archived or completed items, and a re-run changes nothing', async () => {
    const bread = await item(BREAD);
    await t.req('POST', `/api/v1/para/${bread.id}/archive`);
    const n = await node('Sourdough bread baking', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(await paraOf(n)).toEqual([]);
    // The runs below are the test's own: the job a new item queues (filing orphans into it)
    // would otherwise race the request that completes it.
    await t.s.queue.stop();
    const project = await item({ ...BREAD, category: 'projects', label: 'Bake sourdough bread' });
    await t.req('POST', `/api/v1/para/${project.id}/complete`);
    expect(await t.s.paraClassifier.classify(t.tenantId, {})).toEqual([]);

    await t.req('POST', `/api/v1/para/${project.id}/undo-complete`);
    const first = await t.s.paraClassifier.classify(t.tenantId, {});
    expect(first.map((a) => [a.nodeId, a.itemId])).toEqual([[n, project.id]]);
    expect(await t.s.paraClassifier.classify(t.tenantId, {})).toEqual([]);
    // Unarchiving does not pile a second association onto the node's hidden ones (whatever the queued jobs do).
    await t.s.queue.start();
    await t.req('POST', `/api/v1/para/${bread.id}/unarchive`);
    await t.s.queue.idle();
    expect(await paraOf(n)).toEqual([project.id]);
  });

  it('POST /para/:id/match queues orphans for that item only; 409 unless the item is active', async () => {
    const bread = await item(BREAD);
    await t.s.queue.idle();
    // Filed by nobody yet: created while classification was switched off.
    t.s.paraClassifier.settings = { ...t.s.paraClassifier.settings, threshold: 2 };
    const n1 = await node('Sourdough bread baking', 'sourdough starter bread loaves');
    const n2 = await node('Bicycle chain', 'oil the bicycle chain and check the bicycle brakes');
    await t.s.queue.idle();
    const bike = await item(BIKE);
    await t.s.queue.idle();
    expect(await paraOf(n1)).toEqual([]);
    expect(await paraOf(n2)).toEqual([]);

    t.s.paraClassifier.settings = { ...t.s.paraClassifier.settings, threshold: 0.3 };
    const res = await t.req('POST', `/api/v1/para/${bread.id}/match`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queued: 2 });
    await t.s.queue.idle();
    expect(await paraOf(n1)).toEqual([bread.id]);
    expect(await paraOf(n2)).toEqual([]); // fits the bike item, but this match was for bread

    await t.req('POST', `/api/v1/para/${bike.id}/archive`);
    await expectProblem(await t.req('POST', `/api/v1/para/${bike.id}/match`), 409, 'conflict');
    await expectProblem(await t.req('POST', '/api/v1/para/par_nope/match'), 404, 'not_found');
  });

  it('rescan files orphans left over from before', async () => {
    t.s.paraClassifier.settings = { ...t.s.paraClassifier.settings, threshold: 2 };
    const bread = await item(BREAD);
    const n = await node('Sourdough bread baking', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(await paraOf(n)).toEqual([]);
    t.s.paraClassifier.settings = { ...t.s.paraClassifier.settings, threshold: 0.3 };
    expect(await (await t.req('POST', '/api/v1/para/rescan')).json()).toEqual({ queued: 1 });
    await t.s.queue.idle();
    expect(await paraOf(n)).toEqual([bread.id]);
  });

  it('queues no classification work for embedded nodes while the tenant has no active item', async () => {
    const bread = await item(BREAD);
    await t.req('POST', `/api/v1/para/${bread.id}/archive`);
    await t.s.queue.idle();
    const kinds: string[] = [];
    const enqueue = t.s.queue.enqueue.bind(t.s.queue);
    t.s.queue.enqueue = async (tenantId, kind, payload, opts) => (kinds.push(kind), await enqueue(tenantId, kind, payload, opts));
    const enqueueInTx = t.s.queue.enqueueInTx.bind(t.s.queue); // a node's own write queues its embedding this way
    t.s.queue.enqueueInTx = async (tenantId, kind, payload, opts) => (kinds.push(kind), await enqueueInTx(tenantId, kind, payload, opts));
    await node('Sourdough bread baking', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(kinds).toEqual(['embed_node']);
    await t.req('POST', `/api/v1/para/${bread.id}/unarchive`);
    const later = await node('Sourdough bread baking again', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(kinds).toEqual(['embed_node', 'embed_node', 'para_classify']);
    expect(await paraOf(later)).toEqual([bread.id]);
  });

  it("keeps tenants apart: one tenant's orphans never land in another's items", async () => {
    const beta = await t.tenant('beta');
    const theirs = await node('Sourdough bread baking', 'sourdough starter bread loaves', [], beta.auth);
    await t.s.queue.idle();
    const bread = await item(BREAD);
    const mine = await node('Sourdough bread baking', 'sourdough starter bread loaves');
    await t.s.queue.idle();
    expect(await paraOf(mine)).toEqual([bread.id]);
    expect(await paraOf(theirs, beta.auth)).toEqual([]);
    expect(await t.s.paraClassifier.classify(beta.tenantId, { node_ids: [mine] })).toEqual([]);
  });
});
