// Link suggestions and context with the real embedding model (use-lite): paraphrases with no
// shared keywords are found, and an unrelated text gets no suggestions at all.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useRealModel } from '../helpers/real-model.js';
import { createNode } from './helpers.js';

const real = useRealModel();
let t: TestApp;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = real.t;
  const nodes: Record<string, [string, string]> = {
    compost: ['Compost heap temperature', 'A hot compost pile reaches sixty degrees within a week.'],
    tomato: ['Tomato seedlings', 'Harden off tomato seedlings before planting them out.'],
    rust: ['Rust ownership rules', 'Each value has a single owner; the borrow checker enforces it.'],
    sourdough: ['Sourdough starter feeding', 'Feed the starter flour and water twice a day.'],
    taxes: ['Quarterly tax filing', 'Estimated taxes are due every three months.'],
  };
  for (const [k, [title, content]] of Object.entries(nodes)) ids[k] = await createNode(t, { title, content });
  await t.s.queue.idle();
});

async function suggest(text: string) {
  const res = await t.req('GET', `/api/v1/links/suggestions?text=${encodeURIComponent(text)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { suggestions: Array<{ node_id: string; score: number }> }).suggestions;
}

describe('with the real model', () => {
  it('suggests the node a keyword-free paraphrase is about, first', async () => {
    expect((await suggest('My pile of garden waste and kitchen scraps is getting really warm inside.'))[0]?.node_id).toBe(ids.compost);
    expect((await suggest('Young plants need to get used to the outdoors gradually.'))[0]?.node_id).toBe(ids.tomato);
    expect((await suggest('How often should I give my bread culture fresh flour?'))[0]?.node_id).toBe(ids.sourdough);
  });

  it('suggests nothing for an unrelated text instead of padding', async () => {
    expect(await suggest('The meeting about the marketing budget was moved to Thursday.')).toEqual([]);
  });

  it('context for a query ranks the paraphrased node first', async () => {
    const res = await t.req('POST', '/api/v1/context', { query: 'the compiler complained that two variables own one string' });
    const nodes = (await res.json()).nodes as Array<{ id: string; reasons: string[] }>;
    expect(nodes[0].id).toBe(ids.rust);
    expect(nodes[0].reasons).toContain('semantic_match');
  });
});
