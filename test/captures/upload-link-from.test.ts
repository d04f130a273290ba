// POST /captures/upload with link_from: the node being written gets a `references` link to
// the capture's node when the pipeline makes it, with no page left open to do it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, type TestApp } from '../helpers/app.js';
import { capturesApp, settled, upload } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await capturesApp();
});
afterEach(() => t.close());

const md = (text: string) => new TextEncoder().encode(text);
const count = async () => (await (await t.req('GET', '/api/v1/captures')).json()).data.length as number;

describe('upload link_from', () => {
  it('links the named node to the capture\'s node once it is made', async () => {
    const writer = (await (await t.req('POST', '/api/v1/nodes', { title: 'Field trip report' })).json()).id as string;
    const res = await upload(t, md('# Sample sheet\n\nSoil pH 6.2 at the north plot.'), 'samples.md', { link_from: writer });
    expect(res.status).toBe(201);
    const cap = await settled(t, (await res.json()).id);
    expect(cap.status).toBe('completed');
    const links = (await (await t.req('GET', `/api/v1/nodes/${writer}/links`)).json()).links as Array<{ target_id: string; type: string }>;
    expect(links).toEqual([{ target_id: cap.node_id, type: 'references' }]);
    const back = (await (await t.req('GET', `/api/v1/nodes/${cap.node_id}/related`)).json()).nodes as Array<{ id: string; relationship_type: string }>;
    expect(back).toEqual([expect.objectContaining({ id: writer, relationship_type: 'referenced_by' })]);
  });

  it('refuses a node that is not the tenant\'s, and keeps nothing', async () => {
    const other = await t.tenant('beta');
    const theirs = (await (await t.req('POST', '/api/v1/nodes', { title: 'Theirs' }, other.auth)).json()).id as string;
    for (const bad of ['nod_missing', theirs, '   ', 'x'.repeat(101)]) {
      const body = await expectProblem(await upload(t, md('hello'), 'a.md', { link_from: bad }), 400, 'validation_failed');
      expect(JSON.stringify(body.errors)).toMatch(/link_from/);
    }
    expect(await count()).toBe(0);
  });
});
