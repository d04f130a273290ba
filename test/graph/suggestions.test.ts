import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SUGGESTION_MIN_SCORE } from '../../src/services/graph/suggestions.service.js';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { createNode } from './helpers.js';

let t: TestApp;
let compost: string, seedlings: string, rust: string, dismissed: string;
beforeEach(async () => {
  t = await makeTestApp();
  await t.s.queue.start();
  compost = await createNode(t, { title: 'Compost heap temperature', content: 'A hot compost pile reaches sixty degrees within a week.', tags: ['garden'] });
  seedlings = await createNode(t, { title: 'Tomato seedlings', content: 'Harden off tomato seedlings before planting them out.', tags: ['garden'] });
  rust = await createNode(t, { title: 'Rust ownership rules', content: 'Each value has a single owner; the borrow checker enforces it.', tags: ['code'] });
  dismissed = await createNode(t, { title: 'Compost heap myths', content: 'Compost heap temperature folklore.', status: 'dismissed' });
  await t.s.queue.idle();
});
afterEach(() => t.close());

type Suggestion = { node_id: string; title: string; score: number };
async function suggest(text: string, extra = '', auth?: string): Promise<Suggestion[]> {
  const res = await t.req('GET', `/api/v1/links/suggestions?text=${encodeURIComponent(text)}${extra}`, undefined, auth);
  const body = await res.json();
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  return body.suggestions;
}

describe('GET /links/suggestions', () => {
  it('puts the node the text is about first, scores in [0,1] best first, and leaves weak matches out', async () => {
    const s = await suggest('Today I checked the compost heap temperature again: the pile was hot.');
    expect(s[0]).toMatchObject({ node_id: compost, title: 'Compost heap temperature' });
    for (const x of s) {
      expect(x.score).toBeGreaterThanOrEqual(SUGGESTION_MIN_SCORE);
      expect(x.score).toBeLessThanOrEqual(1);
    }
    expect(s.map((x) => x.score)).toEqual([...s.map((x) => x.score)].sort((a, b) => b - a));
    expect(s.map((x) => x.node_id)).not.toContain(rust);
  });

  it('finds each node from its own topic', async () => {
    expect((await suggest('planting tomato seedlings out in spring'))[0].node_id).toBe(seedlings);
    expect((await suggest('the borrow checker and ownership in Rust'))[0].node_id).toBe(rust);
  });

  it('returns an empty list rather than padding when nothing fits', async () => {
    expect(await suggest('quarterly invoice reconciliation spreadsheet')).toEqual([]);
  });

  it('does not suggest a node for one word a long text happens to share with it', async () => {
    expect(await suggest('Our marketing team met sixty customers on Thursday afternoon to discuss pricing')).toEqual([]);
  });

  it('never suggests dismissed nodes', async () => {
    const s = await suggest('compost heap temperature myths and folklore');
    expect(s.map((x) => x.node_id)).not.toContain(dismissed);
  });

  it('honours limit', async () => {
    for (let i = 0; i < 5; i++) await createNode(t, { title: `Compost heap note ${i}`, content: 'compost heap temperature' });
    await t.s.queue.idle();
    expect((await suggest('compost heap temperature', '&limit=2')).length).toBe(2);
    expect((await suggest('compost heap temperature')).length).toBeGreaterThan(2);
  });

  it('treats FTS5 syntax in the text as plain words', async () => {
    for (const text of ['"unbalanced', 'compost AND OR NOT NEAR(heap', '* ^ : - + () {}', 'title:compost', "l'été à Zürich"]) {
      const res = await t.req('GET', `/api/v1/links/suggestions?text=${encodeURIComponent(text)}`);
      expect(res.status, text).toBe(200);
    }
    expect((await suggest('compost AND heap*'))[0].node_id).toBe(compost);
  });

  it('accepts 10,000 characters and rejects more, or no text', async () => {
    expect((await t.req('GET', `/api/v1/links/suggestions?text=${'a'.repeat(10_000)}`)).status).toBe(200);
    await expectProblem(await t.req('GET', `/api/v1/links/suggestions?text=${'a'.repeat(10_001)}`), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/links/suggestions'), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/links/suggestions?text='), 400, 'validation_failed');
    await expectProblem(await t.req('GET', '/api/v1/links/suggestions?text=%20%20'), 400, 'validation_failed');
    for (const bad of ['0', '51', 'x']) {
      await expectProblem(await t.req('GET', `/api/v1/links/suggestions?text=compost&limit=${bad}`), 400, 'validation_failed');
    }
  });

  it("never suggests another tenant's nodes", async () => {
    const beta = await t.tenant('beta');
    expect(await suggest('compost heap temperature', '', beta.auth)).toEqual([]);
    const theirs = await createNode(t, { title: 'Compost heap temperature' }, beta.auth);
    await t.s.queue.idle();
    expect((await suggest('compost heap temperature', '', beta.auth)).map((x) => x.node_id)).toEqual([theirs]);
    expect((await suggest('compost heap temperature')).map((x) => x.node_id)).not.toContain(theirs);
  });
});
