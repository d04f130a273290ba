import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const add = async (title: string, tags: string[], content = '') =>
  (await (await t.req('POST', '/api/v1/nodes', { title, tags, content })).json()).id as string;
const ids = async (path: string, auth?: string) => {
  const res = await t.req('GET', path, undefined, auth);
  expect(res.status).toBe(200);
  return ((await res.json()).data as { id: string }[]).map((n) => n.id).sort();
};

describe('tags', () => {
  it('GET /nodes?tag= keeps nodes carrying every given tag, in the plain list and every search mode', async () => {
    await t.s.queue.start();
    const a = await add('walnut orchard notes', ['trees', 'farm']);
    const b = await add('walnut harvest log', ['trees']);
    await add('walnut bread recipe', ['kitchen']);
    await t.s.queue.idle();
    expect(await ids('/api/v1/nodes?tag=trees')).toEqual([a, b].sort());
    expect(await ids('/api/v1/nodes?tag=trees&tag=farm')).toEqual([a]);
    expect(await ids('/api/v1/nodes?tag=nothing')).toEqual([]);
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      expect(await ids(`/api/v1/nodes?query=walnut&mode=${mode}&tag=trees`)).toEqual([a, b].sort());
      expect(await ids(`/api/v1/nodes?query=walnut&mode=${mode}&tag=trees&tag=farm`)).toEqual([a]);
    }
    // The filtered-out vectors are still found afterwards (not dropped from the index).
    expect((await ids('/api/v1/nodes?query=walnut&mode=semantic')).length).toBe(3);
  });

  it('an unknown query parameter is a 400 on every route, including routes with no query at all', async () => {
    const id = await add('one', []);
    const body = await expectProblem(await t.req('GET', '/api/v1/nodes?tags=trees'), 400, 'validation_failed');
    expect(body.detail).toMatch(/unknown query parameter.*tags/);
    await expectProblem(await t.req('GET', `/api/v1/nodes/${id}?verbose=1`), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/tags?x=1'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/para?bogus=true'), 400, 'validation_failed');
    expect((await t.req('GET', `/api/v1/nodes/${id}`)).status).toBe(200);
  });

  it('GET /tags counts, most used first', async () => {
    await add('a', ['x', 'y']);
    await add('b', ['x']);
    expect((await (await t.req('GET', '/api/v1/tags')).json()).data).toEqual([
      { name: 'x', count: 2 },
      { name: 'y', count: 1 },
    ]);
  });

  it('PATCH /tags/{name} renames, merges into an existing tag and reindexes the keyword search', async () => {
    const a = await add('first', ['old', 'new']);
    const b = await add('second', ['old']);
    const res = await t.req('PATCH', '/api/v1/tags/old', { name: 'new' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'new', count: 2 });
    expect((await (await t.req('GET', `/api/v1/nodes/${a}`)).json()).tags).toEqual(['new']);
    expect((await (await t.req('GET', `/api/v1/nodes/${b}`)).json()).tags).toEqual(['new']);
    expect(await ids('/api/v1/nodes?query=old&mode=keyword')).toEqual([]);
    expect(await ids('/api/v1/nodes?query=new&mode=keyword')).toEqual([a, b].sort());

    const r2 = await t.req('PATCH', '/api/v1/tags/new', { name: 'brand fresh' });
    expect(await r2.json()).toEqual({ name: 'brand fresh', count: 2 });
    expect(await ids('/api/v1/nodes?query=fresh&mode=keyword')).toEqual([a, b].sort());
    await expectProblem(await t.req('PATCH', '/api/v1/tags/missing', { name: 'x' }), 404, 'not_found');
    await expectProblem(await t.req('PATCH', '/api/v1/tags/new', { name: '' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', '/api/v1/tags/brand%20fresh', { name: 'x', other: 1 }), 400, 'validation_failed');
  });

  it('DELETE /tags/{name} removes it from every node and from the keyword index', async () => {
    const a = await add('first', ['zebra', 'keep']);
    await add('second', ['zebra']);
    expect(await ids('/api/v1/nodes?query=zebra&mode=keyword')).toHaveLength(2);
    expect((await t.req('DELETE', '/api/v1/tags/zebra')).status).toBe(204);
    expect(await ids('/api/v1/nodes?query=zebra&mode=keyword')).toEqual([]);
    expect((await (await t.req('GET', `/api/v1/nodes/${a}`)).json()).tags).toEqual(['keep']);
    expect((await (await t.req('GET', '/api/v1/tags')).json()).data).toEqual([{ name: 'keep', count: 1 }]);
    await expectProblem(await t.req('DELETE', '/api/v1/tags/zebra'), 404, 'not_found');
  });

  it('tenants never see, rename or delete each other\'s tags', async () => {
    await add('mine', ['secret']);
    const other = await t.tenant('beta');
    expect((await (await t.req('GET', '/api/v1/tags', undefined, other.auth)).json()).data).toEqual([]);
    expect(await ids('/api/v1/nodes?tag=secret', other.auth)).toEqual([]);
    await expectProblem(await t.req('PATCH', '/api/v1/tags/secret', { name: 'stolen' }, other.auth), 404, 'not_found');
    await expectProblem(await t.req('DELETE', '/api/v1/tags/secret', undefined, other.auth), 404, 'not_found');
    expect((await (await t.req('GET', '/api/v1/tags')).json()).data).toEqual([{ name: 'secret', count: 1 }]);
  });
});

describe('activity entries', () => {
  it('carry string ids like every other id', async () => {
    const cap = await (await t.req('POST', '/api/v1/captures', { title: 'n', content_type: 'note', raw_content: 'hello', source: 'api' })).json();
    const act = await (await t.req('GET', `/api/v1/captures/${cap.id}/activity`)).json();
    expect(act.data.length).toBeGreaterThan(0);
    for (const e of act.data) expect(typeof e.id).toBe('string');
  });
});
