// Agent memory through HTTP: nodes dated when things happened, many written at once, and
// context that hands back the passages that matched with their dates, a period said in the
// question or given as a filter, and a session's tag.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
});
afterEach(() => t.close());

type Ctx = { id: string; title: string; score: number; reasons: string[]; passages: { text: string; start: number; end: number; field: string }[]; created_at: string; occurred_at: string | null };

async function post(path: string, body: unknown, auth?: string) {
  const res = await t.req('POST', path, body, auth);
  return { status: res.status, body: await res.json() };
}
async function context(body: unknown): Promise<Ctx[]> {
  const r = await post('/api/v1/context', body);
  expect(r.status).toBe(200);
  return r.body.nodes;
}

describe('node dates', () => {
  it('keeps created_at and occurred_at as given, changes occurred_at by PATCH, and refuses bad dates without writing', async () => {
    const r = await post('/api/v1/nodes', { title: 'Trip to Lisbon', content: 'Ate pasteis de nata.', created_at: '2023-06-02T09:30:00Z', occurred_at: '2023-05-20' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ created_at: '2023-06-02T09:30:00.000Z', occurred_at: '2023-05-20T00:00:00.000Z' });
    const plain = await post('/api/v1/nodes', { title: 'No dates said' });
    expect(plain.body.occurred_at).toBeNull();

    const patched = await (await t.req('PATCH', `/api/v1/nodes/${r.body.id}`, { occurred_at: '2023-05-21T18:00:00+02:00' })).json();
    expect(patched.occurred_at).toBe('2023-05-21T16:00:00.000Z');
    const cleared = await (await t.req('PATCH', `/api/v1/nodes/${r.body.id}`, { occurred_at: null })).json();
    expect(cleared.occurred_at).toBeNull();
    expect(cleared.created_at).toBe('2023-06-02T09:30:00.000Z');

    const before = (await (await t.req('GET', '/api/v1/nodes')).json()).total;
    await expectProblem(await t.req('POST', '/api/v1/nodes', { title: 'x', occurred_at: 'last tuesday' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/nodes', { title: 'x', created_at: '2999-01-01' }), 400, 'validation_failed');
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(before);
  });

  it("filters GET /nodes by the node's date: occurred_at where said, else created_at", async () => {
    const may = await post('/api/v1/nodes', { title: 'Garden plan', occurred_at: '2023-05-10' });
    const mayByCreation = await post('/api/v1/nodes', { title: 'Garden shed', created_at: '2023-05-25T00:00:00Z' });
    await post('/api/v1/nodes', { title: 'Garden party', created_at: '2023-05-25T00:00:00Z', occurred_at: '2023-07-01' });
    const ids = async (q: string) => (await (await t.req('GET', `/api/v1/nodes?${q}`)).json()).data.map((n: { id: string }) => n.id).sort();
    expect(await ids('occurred_after=2023-05-01&occurred_before=2023-06-01')).toEqual([may.body.id, mayByCreation.body.id].sort());
    expect(await ids('query=garden&mode=keyword&occurred_after=2023-05-01&occurred_before=2023-06-01')).toEqual([may.body.id, mayByCreation.body.id].sort());
    await expectProblem(await t.req('GET', '/api/v1/nodes?occurred_after=May'), 400, 'validation_failed');
  });

  it('GET /nodes puts a period said in the query first in every mode; explicit bounds restrict instead', async () => {
    const june = await post('/api/v1/nodes', { title: 'Pottery', content: 'Pottery lessons again, my bowls are finally round and even.', created_at: '2023-06-20T18:00:00Z' });
    const march = await post('/api/v1/nodes', { title: 'Pottery', content: 'Signed up for pottery lessons.', created_at: '2023-03-14T18:00:00Z' });
    await t.s.queue.idle();
    const ids = async (q: string) => (await (await t.req('GET', `/api/v1/nodes?${q}`)).json()).data.map((n: { id: string }) => n.id);
    const undated = await ids('query=pottery%20lessons%20bowls&mode=keyword');
    expect(undated[0]).toBe(june.body.id); // the better match, with no period said
    for (const mode of ['keyword', 'hybrid']) {
      expect(await ids(`query=pottery%20lessons%20bowls%20in%20March%202023&mode=${mode}`), mode).toEqual([march.body.id, june.body.id]);
    }
    expect(await ids('query=pottery%20lessons%20bowls%20in%20March%202023&mode=keyword&occurred_after=2023-06-01')).toEqual([june.body.id]);
  });
});

describe('POST /nodes/batch', () => {
  it('writes the valid items, reports each bad one in its place, and counts both', async () => {
    const r = await post('/api/v1/nodes/batch', {
      nodes: [
        { title: 'First memory', content: 'Alpha', occurred_at: '2024-01-02' },
        { content: 'no title' },
        { title: 'Third memory', para_item_ids: ['par_unknown'] },
        { title: 'Fourth memory', tags: ['session:abc'] },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 2, failed: 2 });
    expect(r.body.results[0]).toMatchObject({ title: 'First memory', occurred_at: '2024-01-02T00:00:00.000Z' });
    expect(r.body.results[1]).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ path: 'title' })] });
    expect(r.body.results[2]).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(r.body.results[3]).toMatchObject({ title: 'Fourth memory', tags: ['session:abc'] });
    const all = await (await t.req('GET', '/api/v1/nodes?per_page=100')).json();
    expect(all.data.map((n: { title: string }) => n.title).sort()).toEqual(['First memory', 'Fourth memory']);
    // Embedding jobs were queued for the written ones: they become searchable by meaning.
    await t.s.queue.idle();
    expect(await t.s.vectors.count(t.tenantId)).toBe(2);
  });

  it('refuses an empty, oversized or malformed batch as a whole, writing nothing', async () => {
    await expectProblem(await t.req('POST', '/api/v1/nodes/batch', { nodes: [] }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/nodes/batch', { nodes: Array.from({ length: 501 }, (_, i) => ({ title: `n${i}` })) }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/nodes/batch', { nodes: [{ title: 'a' }], extra: 1 }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/nodes/batch', [{ title: 'a' }]), 400, 'validation_failed');
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(0);
  });

  it('writes 500 nodes in one request', async () => {
    const r = await post('/api/v1/nodes/batch', { nodes: Array.from({ length: 500 }, (_, i) => ({ title: `Turn ${i}`, content: `said ${i}` })) });
    expect(r.body).toMatchObject({ created: 500, failed: 0 });
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(500);
  });

  it("never files into another tenant's PARA item", async () => {
    const other = await t.tenant("other");
    const item = await post('/api/v1/para', { category: 'areas', label: 'Secret area' }, other.auth);
    const r = await post('/api/v1/nodes/batch', { nodes: [{ title: 'x', para_item_ids: [item.body.id] }] });
    expect(r.body.results[0]).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(JSON.stringify(r.body)).not.toMatch(/Secret/);
  });
});

describe('POST /context for an agent', () => {
  it('returns the passage that matched, with offsets into the body, and the dates', async () => {
    const filler = 'The weather was grey and we stayed in most of the week. '.repeat(20);
    const body = `${filler}\n\nWe finally adopted a beagle from the shelter and named him Biscuit.\n\n${filler}`;
    const n = await post('/api/v1/nodes', { title: 'Week notes', content: body, occurred_at: '2023-03-04' });
    await t.s.queue.idle();
    const [top] = await context({ query: 'what is the name of the beagle' });
    expect(top.id).toBe(n.body.id);
    expect(top.occurred_at).toBe('2023-03-04T00:00:00.000Z');
    expect(top.passages[0].text).toMatch(/adopted a beagle .* named him Biscuit\./);
    expect(top.passages[0].field).toBe('body');
    expect(body.slice(top.passages[0].start, top.passages[0].end)).toBe(top.passages[0].text);
    expect(top.passages[0].text.length).toBeLessThan(800);
    expect(top.reasons).toContain('keyword_match');
  });

  it('puts the period said in the question first, and gives the same scores for the same request', async () => {
    const march = await post('/api/v1/nodes', { title: 'Maya', content: 'I signed up for pottery lessons on Tuesday evenings.', created_at: '2023-03-14T18:00:00Z' });
    const june = await post('/api/v1/nodes', { title: 'Maya', content: 'Pottery lessons again, my bowls are finally round.', created_at: '2023-06-20T18:00:00Z' });
    const otherMarch = await post('/api/v1/nodes', { title: 'Jonah', content: 'Work was relentless.', created_at: '2023-03-20T18:00:00Z' });
    await t.s.queue.idle();
    const nodes = await context({ query: 'What pottery did Maya do in March 2023?' });
    expect(nodes[0].id).toBe(march.body.id);
    expect(nodes[0].reasons).toContain('date_match:March 2023');
    const ids = nodes.map((n) => n.id);
    expect(ids.indexOf(otherMarch.body.id)).toBeLessThan(ids.indexOf(june.body.id)); // in the period beats out of it
    expect(await context({ query: 'What pottery did Maya do in March 2023?' })).toEqual(nodes);

    // The same period as explicit bounds, and only a session's notes by tag.
    const explicit = await context({ query: 'pottery', occurred_after: '2023-06-01', occurred_before: '2023-07-01' });
    expect(explicit[0].id).toBe(june.body.id);
    const s1 = await post('/api/v1/nodes', { title: 'Session note', content: 'pottery glaze recipe', tags: ['session:s1'] });
    const onlyS1 = await context({ query: 'pottery', tags: ['session:s1'] });
    expect(onlyS1.map((n) => n.id)).toEqual([s1.body.id]);
  });

  it("finds a period's weak match behind many better ones from other months", async () => {
    const batch = Array.from({ length: 40 }, (_, i) => ({ title: 'Pottery', content: `Pottery lessons, pottery wheel, pottery glaze number ${i}.`, created_at: '2023-06-20T18:00:00Z' }));
    expect((await post('/api/v1/nodes/batch', { nodes: batch })).status).toBe(200);
    const march = await post('/api/v1/nodes', { title: 'Weekend', content: 'Tried a pottery class once; long day.', created_at: '2023-03-14T18:00:00Z' });
    await t.s.queue.idle();
    const nodes = await context({ query: 'pottery in March 2023', limit: 5 });
    expect(nodes[0].id).toBe(march.body.id);
    expect(nodes[0].reasons).toContain('date_match:March 2023');
  });

  it("keeps the dates a text mentions and counts them in a period, read relative to the note's date", async () => {
    const n = await post('/api/v1/nodes', { title: 'Conference plans', content: 'The summit is in June 2024 in Lisbon. We booked it yesterday.', created_at: '2023-11-10T09:00:00Z' });
    await post('/api/v1/nodes', { title: 'Summit notes', content: 'The summit had good talks.', created_at: '2023-11-12T09:00:00Z' });
    await t.s.queue.idle();
    const got = await (await t.req('GET', `/api/v1/nodes/${n.body.id}`)).json();
    expect(got.mentioned_dates).toEqual(['2024-06', '2023-11-09']);
    const nodes = await context({ query: 'the summit in June 2024' });
    expect(nodes[0].id).toBe(n.body.id);
    expect(nodes[0].reasons).toContain('date_match:June 2024');
    expect(nodes[1].reasons.some((r) => r.startsWith('date_match'))).toBe(false);
  });

  it('answers a period with no other words with the nodes of that period, latest first', async () => {
    const a = await post('/api/v1/nodes', { title: 'A', created_at: '2022-02-01T00:00:00Z' });
    const b = await post('/api/v1/nodes', { title: 'B', created_at: '2022-09-01T00:00:00Z' });
    await post('/api/v1/nodes', { title: 'C', created_at: '2021-09-01T00:00:00Z' });
    const nodes = await context({ query: 'in 2022' });
    expect(nodes.slice(0, 2).map((n) => n.id)).toEqual([b.body.id, a.body.id]);
    expect(nodes[0].passages).toEqual([{ text: 'B', start: 0, end: 1, field: 'title' }]);
  });

  it('hands the owner\'s highlights and their notes to the agent with the node', async () => {
    const n = await post('/api/v1/nodes', { title: 'Reading notes', content: 'Compound interest is the eighth wonder. Index funds keep costs low.' });
    const h = await post(`/api/v1/nodes/${n.body.id}/highlights`, { text: 'Index funds keep costs low', note: 'why I switched' });
    expect(h.status).toBe(201);
    await t.s.queue.idle();
    const [top] = await context({ query: 'index funds costs' });
    expect(top.id).toBe(n.body.id);
    expect((top as Ctx & { highlights: unknown[] }).highlights).toEqual([{ id: h.body.id, text: 'Index funds keep costs low', note: 'why I switched' }]);
  });

  it("keeps tenants apart: another tenant's notes never come back", async () => {
    const other = await t.tenant("other");
    await post('/api/v1/nodes', { title: 'Biscuit the beagle', content: 'our dog Biscuit' }, other.auth);
    await t.s.queue.idle();
    expect(await context({ query: 'Biscuit the beagle' })).toEqual([]);
  });
});
