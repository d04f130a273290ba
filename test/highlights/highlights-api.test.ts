import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { postCapture, settled } from '../captures/helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const body = 'Soil is alive. Compost feeds the soil and the soil feeds the plants. Mulch keeps the soil moist through summer.';
const node = async (content = body) => (await (await t.req('POST', '/api/v1/nodes', { title: 'Soil notes', content })).json()).id as string;

describe('/nodes/{id}/highlights', () => {
  it('creates, lists, changes and removes a highlight anchored with W3C selectors', async () => {
    const id = await node();
    const res = await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Compost feeds the soil', note: 'the key idea', color: 'green' });
    expect(res.status).toBe(201);
    const h = await res.json();
    const start = body.indexOf('Compost feeds the soil');
    expect(h).toMatchObject({
      node_id: id, text: 'Compost feeds the soil', note: 'the key idea', color: 'green', orphaned: false,
      selectors: [
        { type: 'TextQuoteSelector', exact: 'Compost feeds the soil', prefix: 'Soil is alive. ', suffix: ' and the soil feeds the plants. ' },
        { type: 'TextPositionSelector', start, end: start + 'Compost feeds the soil'.length },
      ],
    });
    expect(h.id).toMatch(/^hl_/);
    expect(typeof h.created_at).toBe('string');

    const list = await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json();
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([h.id]);
    // Listed with the node.
    const n = await (await t.req('GET', `/api/v1/nodes/${id}`)).json();
    expect(n.annotations.map((x: { id: string }) => x.id)).toEqual([h.id]);

    const patched = await (await t.req('PATCH', `/api/v1/nodes/${id}/highlights/${h.id}`, { note: null, color: 'pink' })).json();
    expect(patched).toMatchObject({ id: h.id, note: null, color: 'pink' });
    expect((await t.req('DELETE', `/api/v1/nodes/${id}/highlights/${h.id}`)).status).toBe(204);
    expect((await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json()).data).toEqual([]);
    await expectProblem(await t.req('DELETE', `/api/v1/nodes/${id}/highlights/${h.id}`), 404, 'not_found');
  });

  it('keeps its anchor when the node is edited elsewhere, and reports orphaned when its words are edited away', async () => {
    const id = await node();
    const h = await (await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Mulch keeps the soil moist' })).json();
    await t.req('PATCH', `/api/v1/nodes/${id}`, { content: `# Garden\n\nA new first paragraph.\n\n${body}` });
    const moved = await (await t.req('GET', `/api/v1/nodes/${id}/highlights/${h.id}`)).json();
    const pos = moved.selectors.find((s: { type: string }) => s.type === 'TextPositionSelector');
    const text = (await (await t.req('GET', `/api/v1/nodes/${id}`)).json()).body_markdown as string;
    expect(text.slice(pos.start, pos.end)).toBe('Mulch keeps the soil moist');
    expect(moved.orphaned).toBe(false);

    await t.req('PATCH', `/api/v1/nodes/${id}`, { content: 'Soil is alive. Compost feeds the soil.' });
    const gone = await (await t.req('GET', `/api/v1/nodes/${id}/highlights/${h.id}`)).json();
    expect(gone.orphaned).toBe(true);
    expect(gone.selectors).toEqual([{ type: 'TextQuoteSelector', exact: 'Mulch keeps the soil moist', prefix: h.selectors[0].prefix, suffix: h.selectors[0].suffix }]);
  });

  it('keeps the context the client saw, and uses it to choose among repeated words', async () => {
    const id = await node();
    const h = await (await t.req('POST', `/api/v1/nodes/${id}/highlights`, {
      text: 'the soil', selectors: [{ type: 'TextQuoteSelector', exact: 'the soil', prefix: 'Mulch keeps ', suffix: ' moist' }],
    })).json();
    const pos = h.selectors.find((s: { type: string }) => s.type === 'TextPositionSelector');
    expect(pos.start).toBe(body.indexOf('Mulch keeps the soil') + 'Mulch keeps '.length);
    expect(h.selectors[0]).toMatchObject({ prefix: 'Mulch keeps ', suffix: ' moist' });
  });

  it('refuses bad input with problem+json and writes nothing', async () => {
    const id = await node();
    await expectProblem(await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: '' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'x', color: 'plaid' }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'x', extra: 1 }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', `/api/v1/nodes/${id}/highlights`, '{not json'), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/nodes/nod_missing/highlights', { text: 'x' }), 404, 'not_found');
    expect((await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json()).data).toEqual([]);
  });

  it("another tenant gets 404 on every route and cannot see or touch the node's highlights", async () => {
    const id = await node();
    const h = await (await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Soil is alive' })).json();
    const other = (await t.tenant('beta')).auth;
    await expectProblem(await t.req('GET', `/api/v1/nodes/${id}/highlights`, undefined, other), 404, 'not_found');
    await expectProblem(await t.req('POST', `/api/v1/nodes/${id}/highlights`, { text: 'Soil' }, other), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/nodes/${id}/highlights/${h.id}`, undefined, other), 404, 'not_found');
    await expectProblem(await t.req('PATCH', `/api/v1/nodes/${id}/highlights/${h.id}`, { note: 'mine' }, other), 404, 'not_found');
    await expectProblem(await t.req('DELETE', `/api/v1/nodes/${id}/highlights/${h.id}`, undefined, other), 404, 'not_found');
    const still = await (await t.req('GET', `/api/v1/nodes/${id}/highlights`)).json();
    expect(still.data).toMatchObject([{ id: h.id, note: null }]);
  });

  it("a capture's selected text becomes its node's first highlight, once, even when reingested", async () => {
    await t.s.queue.start();
    const cap = await postCapture(t, { title: 'Field note', content_type: 'note', selected_text: 'Worms turn leaves into soil.' });
    const done = await settled(t, cap);
    expect(done.status).toBe('completed');
    const list = (await (await t.req('GET', `/api/v1/nodes/${done.node_id}/highlights`)).json()).data;
    expect(list).toMatchObject([{ text: 'Worms turn leaves into soil.', orphaned: false, note: null, color: 'yellow' }]);
    expect((await t.req('POST', `/api/v1/captures/${cap}/reingest`)).status).toBeLessThan(300);
    await settled(t, cap);
    expect((await (await t.req('GET', `/api/v1/nodes/${done.node_id}/highlights`)).json()).data).toHaveLength(1);
  });

  it('highlightsFor gives several nodes their highlights in one call, and nothing of another tenant', async () => {
    const a = await node();
    const b = await node('Another text about compost heaps.');
    await t.req('POST', `/api/v1/nodes/${a}/highlights`, { text: 'Soil is alive' });
    await t.req('POST', `/api/v1/nodes/${b}/highlights`, { text: 'compost heaps', note: 'turn weekly' });
    const got = await t.s.highlights.highlightsFor(t.tenantId, [a, b, 'nod_none']);
    expect(got.get(a)!.map((h) => h.text)).toEqual(['Soil is alive']);
    expect(got.get(b)!.map((h) => h.note)).toEqual(['turn weekly']);
    const beta = await t.tenant('gamma');
    expect((await t.s.highlights.highlightsFor(beta.tenantId, [a, b])).size).toBe(0);
  });
});
