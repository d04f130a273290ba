import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVERSE_LINK_TYPE, LINK_TYPES } from '../../src/schemas/graph.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { allLinkRows, createNode, expectSymmetric, getLinks, setLinks } from './helpers.js';

let t: TestApp;
let a: string, b: string, c: string, d: string;
beforeEach(async () => {
  t = await makeTestApp();
  a = await createNode(t, { title: 'Alpha' });
  b = await createNode(t, { title: 'Bravo' });
  c = await createNode(t, { title: 'Charlie' });
  d = await createNode(t, { title: 'Delta' });
});
afterEach(() => t.close());

const sorted = <T extends { target_id: string }>(l: T[]) => [...l].sort((x, y) => x.target_id.localeCompare(y.target_id));

describe('PATCH /nodes/:id/links', () => {
  it('creates each link with its reverse carrying the inverse type, and returns the node links', async () => {
    const res = await setLinks(t, a, [{ target_id: b, type: 'references' }, { target_id: c, type: 'part_of' }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ links: sorted([{ target_id: b, type: 'references' }, { target_id: c, type: 'part_of' }]) });
    expect(await getLinks(t, b)).toEqual([{ target_id: a, type: 'referenced_by' }]);
    expect(await getLinks(t, c)).toEqual([{ target_id: a, type: 'has_part' }]);
    await expectSymmetric(t);
  });

  it('gives every type its documented inverse', async () => {
    expect(Object.keys(INVERSE_LINK_TYPE).sort()).toEqual([...LINK_TYPES].sort());
    const ids: string[] = [];
    for (const type of LINK_TYPES) ids.push(await createNode(t, { title: `target ${type}` }));
    const res = await setLinks(t, a, LINK_TYPES.map((type, i) => ({ target_id: ids[i], type })));
    expect(res.status).toBe(200);
    for (const [i, type] of LINK_TYPES.entries()) {
      expect(await getLinks(t, ids[i])).toEqual([{ target_id: a, type: INVERSE_LINK_TYPE[type] }]);
    }
    expect(INVERSE_LINK_TYPE.related).toBe('related');
    expect(INVERSE_LINK_TYPE.contradicts).toBe('contradicts');
    await expectSymmetric(t);
  });

  it('replaces the whole set: absent links vanish with their reverses, changed types change both rows', async () => {
    await setLinks(t, a, [{ target_id: b, type: 'related' }, { target_id: c, type: 'supports' }]);
    await expectSymmetric(t);

    const res = await setLinks(t, a, [{ target_id: c, type: 'contradicts' }, { target_id: d, type: 'derived_from' }]);
    expect(res.status).toBe(200);
    expect((await res.json()).links).toEqual(sorted([{ target_id: c, type: 'contradicts' }, { target_id: d, type: 'derived_from' }]));
    expect(await getLinks(t, b)).toEqual([]);
    expect(await getLinks(t, c)).toEqual([{ target_id: a, type: 'contradicts' }]);
    expect(await getLinks(t, d)).toEqual([{ target_id: a, type: 'source_of' }]);
    await expectSymmetric(t);

    expect((await (await setLinks(t, a, [])).json()).links).toEqual([]);
    expect(await allLinkRows(t)).toEqual([]);
  });

  it("counts links made from the other side as the node's own: leaving one out removes that pair", async () => {
    await setLinks(t, b, [{ target_id: a, type: 'references' }]);
    await setLinks(t, c, [{ target_id: a, type: 'supports' }]);
    expect(await getLinks(t, a)).toEqual(sorted([{ target_id: b, type: 'referenced_by' }, { target_id: c, type: 'supported_by' }]));

    // Re-stating a target with another type replaces the pair (and so the other side's link).
    await setLinks(t, a, [{ target_id: c, type: 'related' }]);
    expect(await getLinks(t, b)).toEqual([]);
    expect(await getLinks(t, c)).toEqual([{ target_id: a, type: 'related' }]);
    await expectSymmetric(t);
  });

  it('keeps other nodes\' links untouched', async () => {
    await setLinks(t, b, [{ target_id: c, type: 'related' }, { target_id: d, type: 'related' }]);
    await setLinks(t, a, [{ target_id: b, type: 'related' }]);
    await setLinks(t, a, []);
    expect(sorted(await getLinks(t, b))).toEqual(sorted([{ target_id: c, type: 'related' }, { target_id: d, type: 'related' }]));
    await expectSymmetric(t);
  });

  describe('400 validation_failed, and nothing changes', () => {
    const cases: Array<[string, () => unknown]> = [
      ['an unknown type', () => ({ links: [{ target_id: b, type: 'likes' }] })],
      ['a missing target', () => ({ links: [{ target_id: 'nod_doesnotexist', type: 'related' }] })],
      ['a self link', () => ({ links: [{ target_id: a, type: 'related' }] })],
      ['a duplicate target', () => ({ links: [{ target_id: c, type: 'related' }, { target_id: c, type: 'supports' }] })],
      ['a duplicate identical entry', () => ({ links: [{ target_id: c, type: 'related' }, { target_id: c, type: 'related' }] })],
      ['an unknown field', () => ({ links: [], extra: 1 })],
      ['an unknown field in a link', () => ({ links: [{ target_id: c, type: 'related', weight: 2 }] })],
      ['no links field', () => ({})],
      ['links not an array', () => ({ links: { target_id: c, type: 'related' } })],
      ['an empty target id', () => ({ links: [{ target_id: '', type: 'related' }] })],
      ['more than 1,000 entries', () => ({ links: Array.from({ length: 1001 }, (_, i) => ({ target_id: `nod_${i}`, type: 'related' })) })],
      ['a good entry beside a bad one', () => ({ links: [{ target_id: d, type: 'related' }, { target_id: 'nod_missing', type: 'related' }] })],
    ];
    for (const [name, payload] of cases) {
      it(name, async () => {
        await setLinks(t, a, [{ target_id: b, type: 'references' }]);
        const before = await allLinkRows(t);
        const res = await t.req('PATCH', `/api/v1/nodes/${a}/links`, payload());
        const p = await expectProblem(res, 400, 'validation_failed');
        expect(p.errors?.length).toBeGreaterThan(0);
        expect(await allLinkRows(t)).toEqual(before);
      });
    }

    it('malformed JSON', async () => {
      const before = await allLinkRows(t);
      await expectProblem(await t.req('PATCH', `/api/v1/nodes/${a}/links`, '{"links": ['), 400, 'validation_failed');
      expect(await allLinkRows(t)).toEqual(before);
    });

    it('names the offending entry', async () => {
      const res = await setLinks(t, a, [{ target_id: b, type: 'related' }, { target_id: a, type: 'related' }]);
      const p = await expectProblem(res, 400, 'validation_failed');
      expect(p.errors).toEqual([{ path: 'links.1.target_id', message: 'a node cannot link to itself' }]);
    });
  });

  it('404 for an unknown source node', async () => {
    await expectProblem(await setLinks(t, 'nod_nope', [{ target_id: b, type: 'related' }]), 404, 'not_found');
    await expectProblem(await t.req('GET', '/api/v1/nodes/nod_nope/links'), 404, 'not_found');
  });
});

describe('tenant isolation', () => {
  it("another tenant's node is a 404 as a source and reads exactly like a missing node as a target", async () => {
    const beta = await t.tenant('beta');
    const x = await createNode(t, { title: 'Beta node' }, beta.auth);
    await setLinks(t, a, [{ target_id: b, type: 'related' }]);
    const before = await allLinkRows(t);

    // beta cannot see or change alpha's node
    await expectProblem(await setLinks(t, a, [], beta.auth), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/nodes/${a}/links`, undefined, beta.auth), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/nodes/${a}/related`, undefined, beta.auth), 404, 'not_found');

    // alpha linking to beta's node gets the same answer as linking to a made-up id
    const foreign = await expectProblem(await setLinks(t, a, [{ target_id: x, type: 'related' }]), 400, 'validation_failed');
    const missing = await expectProblem(await setLinks(t, a, [{ target_id: 'nod_zzzz', type: 'related' }]), 400, 'validation_failed');
    expect(foreign.detail.replace(x, 'ID')).toBe(missing.detail.replace('nod_zzzz', 'ID'));
    expect(JSON.stringify(foreign.errors).replace(x, 'ID')).toBe(JSON.stringify(missing.errors).replace('nod_zzzz', 'ID'));
    expect(await allLinkRows(t)).toEqual(before);
  });
});

describe('deleting a node', () => {
  it('removes its links and their reverses', async () => {
    await setLinks(t, a, [{ target_id: b, type: 'references' }, { target_id: c, type: 'related' }]);
    await setLinks(t, b, [{ target_id: a, type: 'referenced_by' }, { target_id: c, type: 'supports' }]);
    expect((await t.req('DELETE', `/api/v1/nodes/${a}`)).status).toBe(204);
    expect((await allLinkRows(t)).some((r) => r.includes(a))).toBe(false);
    expect(await getLinks(t, b)).toEqual([{ target_id: c, type: 'supports' }]);
    expect(await getLinks(t, c)).toEqual([{ target_id: b, type: 'supported_by' }]);
    await expectSymmetric(t);
  });
});
