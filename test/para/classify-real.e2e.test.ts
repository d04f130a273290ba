// Classification end to end through the HTTP API with the real embedding model.
import { raw } from '../helpers/raw.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useRealModel } from '../helpers/real-model.js';

const real = useRealModel();
let t: TestApp;
beforeAll(() => {
  t = real.t;
});

const node = async (title: string, content: string) => {
  const res = await t.req('POST', '/api/v1/nodes', { title, content });
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
};
const item = async (category: string, label: string, description: string) =>
  (await (await t.req('POST', '/api/v1/para', { category, label, description })).json()).id as string;
const paraOf = async (id: string) => (await (await t.req('GET', `/api/v1/nodes/${id}`)).json()).para_item_ids;

describe('PARA classification through the API (real model)', () => {
  it('files existing orphans when items are created, new notes when their embedding lands, and leaves unrelated notes alone', async () => {
    const quote = await node('Quote from Henderson Builders', 'Henderson quoted 18,400 for demolition, new base cabinets and installing the countertop.');
    const tiles = await node('Backsplash tile ideas', 'White zellige tiles behind the stove, laid vertically, to match the sage cabinets.');
    const flights = await node('Flights to Tokyo', 'ANA nonstop to Haneda on April 4, returning from Osaka Kansai on April 18.');
    const temples = await node('Kyoto temples to see', 'Fushimi Inari early in the morning, Kinkaku-ji and Kiyomizu-dera at sunset.');
    const poem = await node('Poem I liked', 'Mary Oliver: tell me, what is it you plan to do with your one wild and precious life?');
    const router = await node('Reset the router', 'Hold the reset button for ten seconds, then log in with the password on the sticker.');
    await t.s.queue.idle(120_000);
    expect(await paraOf(quote)).toEqual([]);

    const kitchen = await item('projects', 'Kitchen renovation', 'Remodelling the kitchen: cabinets, countertops, appliances, contractor quotes and budget.');
    const japan = await item('projects', 'Japan trip', 'Two weeks in Tokyo and Kyoto in April: flights, rail pass, hotels, itinerary and places to visit.');
    await t.s.queue.idle(120_000);

    expect(await paraOf(quote)).toEqual([kitchen]);
    expect(await paraOf(tiles)).toEqual([kitchen]);
    expect(await paraOf(flights)).toEqual([japan]);
    expect(await paraOf(temples)).toEqual([japan]);
    expect(await paraOf(poem)).toEqual([]);
    expect(await paraOf(router)).toEqual([]);
    const row = await raw(t.s.db).prepare('SELECT source, score, method, model FROM node_para WHERE node_id = ?').get(flights) as Record<string, unknown>;
    expect(row).toMatchObject({ source: 'auto', method: 'cosine:label', model: 'use-lite-512@energetic-ai-0.2.0' });
    expect(row.score as number).toBeGreaterThanOrEqual(0.5); // calibrated: at least the threshold
    expect(row.score as number).toBeLessThanOrEqual(1);

    // A note that arrives later is filed once its vector is written.
    const later = await node('Day trip to Nara', 'Take the Kintetsu line from Kyoto, see the deer park and the giant Buddha at Todai-ji.');
    await t.s.queue.idle(120_000);
    expect(await paraOf(later)).toEqual([japan]);

    // The user's own choice stands: moving a note is never undone by a rescan.
    await t.req('PATCH', `/api/v1/nodes/${tiles}`, { para_item_ids: [japan] });
    const res = await t.req('POST', '/api/v1/para/rescan');
    // The poem and the router note (orphans) and the four automatic filings are looked at again.
    expect(await res.json()).toEqual({ queued: 6 });
    await t.s.queue.idle(120_000);
    expect(await paraOf(tiles)).toEqual([japan]);
    expect(await paraOf(poem)).toEqual([]);
    expect(await paraOf(quote)).toEqual([kitchen]); // a filing that still wins stays
    expect(await paraOf(later)).toEqual([japan]);

    const tree = await (await t.req('GET', '/api/v1/para/tree')).json();
    expect(tree.projects.map((i: { label: string; node_count: number }) => [i.label, i.node_count])).toEqual([
      ['Japan trip', 4],
      ['Kitchen renovation', 1],
    ]);
  });
});
