// Pseudo-relevance feedback through GET /nodes (RHIZOME_SEARCH_FEEDBACK; served by default
// for queries of 15+ content words): the keyword ranking changes, notes sharing the best
// hits' vocabulary rise, and no note without a word of the query ever appears; a shorter
// query is ranked as without feedback.
// In-process HTTP suite: it runs on both engines (the feedback nodes' terms are read through
// each engine's KeywordSource.termVectors).
import { afterEach, describe, expect, it } from 'vitest';
import { parseFeedback } from '../../src/search/keyword/feedback.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(() => t.close());

const post = async (title: string, content: string) => {
  const res = await t.req('POST', '/api/v1/nodes', { title, content });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
};
const keyword = async (query: string) => {
  const res = await t.req('GET', `/api/v1/nodes?query=${encodeURIComponent(query)}&mode=keyword&per_page=50`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string }[] }).data.map((n) => n.id);
};

/** Notes holding "dijkstra": 3 best, some about baking, 6 about routing (the best ones' words); 4 with those words but not "dijkstra"; filler; another tenant's. */
async function seed(baking = 6) {
    const best: string[] = [];
    for (let i = 0; i < 3; i++) best.push(await post(`Dijkstra ${i}`, 'dijkstra dijkstra dijkstra shortest path over weighted edges between vertices'));
    const plainOnes: string[] = [];
    for (let i = 0; i < baking; i++) plainOnes.push(await post(`Note ${i}`, `dijkstra was mentioned at the bakery ${i} with sourdough flour`));
    const related: string[] = [];
    for (let i = 0; i < 6; i++) related.push(await post(`Routing ${i}`, `dijkstra finds the shortest path across weighted edges in a network ${i}`));
    const unrelated: string[] = [];
    for (let i = 0; i < 4; i++) unrelated.push(await post(`Graphs ${i}`, 'shortest path over weighted edges between vertices, twice: shortest path, weighted edges'));
    for (let i = 0; i < 20; i++) await post(`Filler ${i}`, `garden compost tomato seedlings row ${i}`);
  const other = await t.tenant('beta');
  await t.req('POST', '/api/v1/nodes', { title: 'Dijkstra elsewhere', content: 'dijkstra shortest path' }, other.auth);
  return { best, plainOnes, related, unrelated };
}

describe('pseudo-relevance feedback on the keyword side', () => {
  it('re-orders the matches by the best ones\' vocabulary and never adds a note without a query word', async () => {
    t = await makeTestApp({ config: { searchFeedback: 'rm3:3:5:0.5' } });
    const { best, plainOnes, related, unrelated } = await seed();
    const on = await keyword('dijkstra');
    t.s.keywordRoute!.feedback = null;
    const off = await keyword('dijkstra');

    // The same matches (every note holding "dijkstra", only this tenant's), in another order.
    expect(new Set(on)).toEqual(new Set([...best, ...plainOnes, ...related]));
    expect(new Set(off)).toEqual(new Set(on));
    expect(on).not.toEqual(off);
    for (const id of unrelated) expect(on).not.toContain(id);
    // Without feedback the routing notes (longer) come after the bakery ones; with it, before.
    expect(off.slice(3, 9).every((id) => plainOnes.includes(id))).toBe(true);
    expect(on.slice(0, 3).every((id) => best.includes(id))).toBe(true);
    expect(on.slice(3, 9).every((id) => related.includes(id))).toBe(true);
    // Deterministic: asked again, the same answer.
    t.s.keywordRoute!.feedback = parseFeedback('rm3:3:5:0.5');
    expect(await keyword('dijkstra')).toEqual(on);
  });

  it('is served by default for a query of 15 content words or more, and a shorter one is ranked without it', async () => {
    t = await makeTestApp();
    const { best, plainOnes, related, unrelated } = await seed(3);
    // Words no note holds make the query long (a paragraph); only "dijkstra" matches.
    const long = 'dijkstra alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november';
    const short = 'dijkstra alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike';
    const served = await keyword(long);
    const shortServed = await keyword(short);
    t.s.keywordRoute!.feedback = null;
    const off = await keyword(long);
    expect(await keyword(short)).toEqual(shortServed);
    expect(new Set(served)).toEqual(new Set([...best, ...plainOnes, ...related]));
    expect(new Set(off)).toEqual(new Set(served));
    // Re-ordered (the served setting learns from the best 10), never joined by a note without "dijkstra".
    expect(served).not.toEqual(off);
    for (const id of unrelated) expect(served).not.toContain(id);
  });
});
