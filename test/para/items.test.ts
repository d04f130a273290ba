import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { slugify } from '../../src/services/para/para-slug.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  await t.close();
});

const create = async (body: Record<string, unknown>, auth?: string) => {
  const res = await t.req('POST', '/api/v1/para', body, auth);
  return { res, item: res.status === 201 ? await res.json() : null };
};

describe('PARA items', () => {
  it('creates an item with a slug generated from the label', async () => {
    const { res, item } = await create({ category: 'projects', label: 'Q3 Launch!', description: 'Ship the thing' });
    expect(res.status).toBe(201);
    expect(item).toMatchObject({ category: 'projects', label: 'Q3 Launch!', description: 'Ship the thing', slug: 'q3-launch', status: 'active' });
    expect(item.id).toMatch(/^par_/);
    expect(Date.parse(item.created_at)).toBeGreaterThan(0);
    const got = await (await t.req('GET', `/api/v1/para/${item.id}`)).json();
    expect(got).toEqual(item);
  });

  it('makes slugs unique per tenant: q3-launch, q3-launch-2, q3-launch-3', async () => {
    const slugs = [];
    for (const label of ['Q3 Launch!', 'q3 launch', 'Q3   LAUNCH']) slugs.push((await create({ category: 'projects', label })).item.slug);
    expect(slugs).toEqual(['q3-launch', 'q3-launch-2', 'q3-launch-3']);
    // Another tenant starts from the plain slug again.
    const beta = await t.tenant('beta');
    expect((await create({ category: 'areas', label: 'Q3 Launch!' }, beta.auth)).item.slug).toBe('q3-launch');
  });

  it('folds accents, keeps other scripts and never yields an empty slug', () => {
    expect(slugify('Café Déjà Vu')).toBe('cafe-deja-vu');
    expect(slugify('  --Hello__World--  ')).toBe('hello-world');
    expect(slugify('日本 旅行')).toBe('日本-旅行');
    expect(slugify('!!!')).toBe('item');
    expect(slugify('a'.repeat(300)).length).toBe(80);
  });

  it('rejects a client-sent slug, unknown fields and bad values with 400', async () => {
    await expectProblem((await create({ category: 'projects', label: 'X', slug: 'mine' })).res, 400, 'validation_failed');
    await expectProblem((await create({ category: 'folders', label: 'X' })).res, 400, 'validation_failed');
    await expectProblem((await create({ category: 'areas', label: '   ' })).res, 400, 'validation_failed');
    await expectProblem((await create({ category: 'areas' })).res, 400, 'validation_failed');
    await expectProblem((await create({ category: 'areas', label: 'x'.repeat(201) })).res, 400, 'validation_failed');
    await expectProblem((await create({ category: 'areas', label: 'X', status: 'archived' })).res, 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/para', '{"category":'), 400, 'validation_failed');
  });

  it('lists items with category and status filters', async () => {
    const p = (await create({ category: 'projects', label: 'Launch' })).item;
    const a = (await create({ category: 'areas', label: 'Health' })).item;
    const r = (await create({ category: 'resources', label: 'Recipes' })).item;
    await t.req('POST', `/api/v1/para/${r.id}/archive`);
    const ids = async (q: string) => ((await (await t.req('GET', `/api/v1/para${q}`)).json()).data as { id: string }[]).map((i) => i.id);
    expect(await ids('')).toEqual([p.id, a.id, r.id]);
    expect(await ids('?category=areas')).toEqual([a.id]);
    expect(await ids('?status=archived')).toEqual([r.id]);
    expect(await ids('?status=active')).toEqual([p.id, a.id]);
    expect(await ids('?category=resources&status=active')).toEqual([]);
    await expectProblem(await t.req('GET', '/api/v1/para?category=archives'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/para?status=deleted'), 400, 'validation_failed');
  });

  it('patches label (new slug), description and rejects slug or category', async () => {
    const item = (await create({ category: 'areas', label: 'Health' })).item;
    (await create({ category: 'areas', label: 'Fitness' })).item;
    t.clock.advance(1000);
    const res = await t.req('PATCH', `/api/v1/para/${item.id}`, { label: 'Fitness', description: 'Running and lifting' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ label: 'Fitness', slug: 'fitness-2', description: 'Running and lifting', status: 'active' });
    expect(body.updated_at > item.updated_at).toBe(true);
    // Only the description: the slug stays.
    expect((await (await t.req('PATCH', `/api/v1/para/${item.id}`, { description: '' })).json()).slug).toBe('fitness-2');
    // Renaming back to a label whose slug it already holds keeps it.
    expect((await (await t.req('PATCH', `/api/v1/para/${item.id}`, { label: 'FITNESS' })).json()).slug).toBe('fitness-2');
    await expectProblem(await t.req('PATCH', `/api/v1/para/${item.id}`, { slug: 'x' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', `/api/v1/para/${item.id}`, { category: 'projects' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', `/api/v1/para/${item.id}`, { status: 'done' }), 400, 'validation_failed');
    await expectProblem(await t.req('PATCH', '/api/v1/para/par_missing', { label: 'x' }), 404, 'not_found');
  });

  it('hides every item from another tenant (404), and lists only its own', async () => {
    const item = (await create({ category: 'projects', label: 'Secret' })).item;
    const beta = await t.tenant('beta');
    for (const [method, path, body] of [
      ['GET', `/api/v1/para/${item.id}`],
      ['PATCH', `/api/v1/para/${item.id}`, { label: 'Mine now' }],
      ['POST', `/api/v1/para/${item.id}/archive`],
      ['POST', `/api/v1/para/${item.id}/unarchive`],
      ['POST', `/api/v1/para/${item.id}/complete`],
      ['POST', `/api/v1/para/${item.id}/undo-complete`],
      ['POST', `/api/v1/para/${item.id}/match`],
    ] as const) {
      await expectProblem(await t.req(method, path, body, beta.auth), 404, 'not_found');
    }
    expect((await (await t.req('GET', '/api/v1/para', undefined, beta.auth)).json()).data).toEqual([]);
    expect(await (await t.req('GET', '/api/v1/para/tree', undefined, beta.auth)).json()).toEqual({ projects: [], areas: [], resources: [] });
    expect((await (await t.req('GET', `/api/v1/para/${item.id}`)).json()).label).toBe('Secret');
  });

  it('requires authentication', async () => {
    await expectProblem(await t.req('GET', '/api/v1/para', undefined, null), 401, 'unauthorized');
    await expectProblem(await t.req('POST', '/api/v1/para/rescan', undefined, null), 401, 'unauthorized');
  });

  it('documents every PARA route in the OpenAPI document', async () => {
    const doc = await (await t.req('GET', '/api/v1/openapi.json')).json();
    for (const p of ['/api/v1/para', '/api/v1/para/tree', '/api/v1/para/rescan', '/api/v1/para/{id}', '/api/v1/para/{id}/complete',
      '/api/v1/para/{id}/undo-complete', '/api/v1/para/{id}/archive', '/api/v1/para/{id}/unarchive', '/api/v1/para/{id}/match']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/api/v1/para/{id}'].delete.deprecated).toBe(true);
  });
});
