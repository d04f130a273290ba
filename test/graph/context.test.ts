import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode, setLinks } from './helpers.js';

const DAY = 86_400_000;
type Ctx = { id: string; title: string; summary: string; score: number; reasons: string[] };

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

async function context(body: unknown, auth?: string): Promise<Ctx[]> {
  const res = await t.req('POST', '/api/v1/context', body, auth);
  const out = await res.json();
  if (res.status !== 200) throw new Error(JSON.stringify(out));
  return out.nodes;
}

async function activeProject(label: string): Promise<string> {
  const res = await t.req('POST', '/api/v1/para', { category: 'projects', label });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

describe('POST /context', () => {
  it("ranks a focus node's direct neighbour above an unrelated recent, validated, active-project node", async () => {
    const focus = await createNode(t, { title: 'Sourdough starter feeding schedule', content: 'Feed the sourdough starter twice a day.' });
    const neighbour = await createNode(t, { title: 'Rye flour hydration', content: 'Rye absorbs more water than wheat.' });
    await setLinks(t, focus, [{ target_id: neighbour, type: 'references' }]);
    t.clock.advance(200 * DAY); // the neighbour is old and raw
    const project = await activeProject('Bakery launch');
    // Shares words with the focus, so the semantic side draws it in; everything else favours it.
    const recent = await createNode(t, {
      title: 'Sourdough starter discard crackers', content: 'Use sourdough starter discard.', status: 'validated', para_item_ids: [project],
    });
    await t.s.queue.idle();

    const nodes = await context({ focus_node_ids: [focus] });
    const ids = nodes.map((n) => n.id);
    expect(ids[0]).toBe(neighbour);
    expect(nodes[0].reasons).toContain('focus_neighbour:1hop:references');
    expect(ids).toContain(recent);
    const r = nodes.find((n) => n.id === recent)!;
    expect(r.reasons).toEqual(expect.arrayContaining(['semantic_match', 'validated', 'active_project', 'recent']));
    expect(nodes[0].score).toBeGreaterThan(r.score);
    expect(ids).not.toContain(focus); // focus nodes are the session's own, not context for it
  });

  it('decays with distance: 1 hop above 2 hops, 3 hops not at all', async () => {
    const [f, one, two, three] = [
      await createNode(t, { title: 'Alpha focus' }), await createNode(t, { title: 'Bravo hop' }),
      await createNode(t, { title: 'Charlie hop' }), await createNode(t, { title: 'Delta hop' }),
    ];
    await setLinks(t, f, [{ target_id: one, type: 'part_of' }]);
    await setLinks(t, one, [{ target_id: f, type: 'has_part' }, { target_id: two, type: 'supports' }]);
    await setLinks(t, two, [{ target_id: one, type: 'supported_by' }, { target_id: three, type: 'related' }]);
    await t.s.queue.idle();
    const nodes = await context({ focus_node_ids: [f], mode: 'keyword' });
    expect(nodes.map((n) => n.id)).toEqual([one, two]);
    expect(nodes[0].reasons).toContain('focus_neighbour:1hop:part_of');
    expect(nodes[1].reasons).toContain('focus_neighbour:2hop:supports');
    expect(nodes[0].score).toBeGreaterThan(nodes[1].score);
  });

  it('draws in keyword and semantic matches of the query, and mode limits which side runs', async () => {
    const compost = await createNode(t, { title: 'Compost heap temperature', content: 'A hot compost pile reaches sixty degrees.' });
    await createNode(t, { title: 'Rust ownership rules', content: 'Each value has a single owner.' });
    await t.s.queue.idle();

    const hybrid = await context({ query: 'compost heap temperature' });
    expect(hybrid[0].id).toBe(compost);
    expect(hybrid[0].reasons).toEqual(expect.arrayContaining(['keyword_match', 'semantic_match']));
    const keyword = await context({ query: 'compost heap temperature', mode: 'keyword' });
    expect(keyword[0].reasons).toContain('keyword_match');
    expect(keyword[0].reasons).not.toContain('semantic_match');
    const semantic = await context({ query: 'compost heap temperature', mode: 'semantic' });
    expect(semantic[0].reasons).toContain('semantic_match');
    expect(semantic[0].reasons).not.toContain('keyword_match');
  });

  it('with nothing to anchor on returns recent validated nodes first, then recent raw ones, never dismissed', async () => {
    const oldValidated = await createNode(t, { title: 'Old validated', status: 'validated' });
    t.clock.advance(10 * DAY);
    const newValidated = await createNode(t, { title: 'New validated', status: 'validated' });
    const raw = await createNode(t, { title: 'Raw note' });
    const gone = await createNode(t, { title: 'Dismissed note', status: 'dismissed' });
    const nodes = await context({});
    expect(nodes.map((n) => n.id)).toEqual([newValidated, oldValidated, raw]);
    expect(nodes[0].reasons).toEqual(['validated', 'recent']);
    expect(nodes.map((n) => n.id)).not.toContain(gone);
    expect(nodes.every((n) => n.score >= 0 && n.score <= 1)).toBe(true);
    expect((await context({ limit: 1 })).map((n) => n.id)).toEqual([newValidated]);
  });

  it('ignores unknown and foreign focus ids without leaking anything', async () => {
    const mine = await createNode(t, { title: 'Mine', status: 'validated' });
    const beta = await t.tenant('beta');
    const theirs = await createNode(t, { title: 'Theirs' }, beta.auth);
    const theirNeighbour = await createNode(t, { title: 'Their neighbour' }, beta.auth);
    await setLinks(t, theirs, [{ target_id: theirNeighbour, type: 'related' }], beta.auth);
    await t.s.queue.idle();

    const withForeign = await context({ focus_node_ids: [theirs, 'nod_unknown'] });
    expect(withForeign).toEqual(await context({}));
    expect(withForeign.map((n) => n.id)).toEqual([mine]);
    // and beta, focusing on its own node, never sees alpha's
    const betaView = await context({ focus_node_ids: [theirs], query: 'Mine' }, beta.auth);
    expect(betaView.map((n) => n.id)).toEqual([theirNeighbour]);
  });

  it('honours limit and orders by score', async () => {
    const f = await createNode(t, { title: 'Focus' });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await createNode(t, { title: `Leaf ${i}` }));
    await setLinks(t, f, ids.map((id) => ({ target_id: id, type: 'related' })));
    await t.s.queue.idle();
    const nodes = await context({ focus_node_ids: [f], limit: 5, mode: 'keyword' });
    expect(nodes.length).toBe(5);
    expect(nodes.map((n) => n.score)).toEqual([...nodes.map((n) => n.score)].sort((a, b) => b - a));
  });

  it('rejects malformed requests with 400', async () => {
    for (const bad of [
      { limit: 0 }, { limit: 101 }, { limit: 2.5 }, { mode: 'fuzzy' }, { focus_node_ids: 'nod_x' },
      { focus_node_ids: [''] }, { query: 'x'.repeat(2001) }, { unknown: true },
    ]) {
      await expectProblem(await t.req('POST', '/api/v1/context', bad), 400, 'validation_failed');
    }
    await expectProblem(await t.req('POST', '/api/v1/context', '{"focus'), 400, 'validation_failed');
  });
});
