// The real bundled model (Universal Sentence Encoder lite) in its worker thread.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useRealModel } from '../helpers/real-model.js';

const real = useRealModel();
let t: TestApp;
beforeAll(() => {
  t = real.t;
});

describe('semantic search with the bundled model', () => {
  it('ranks a paraphrase with no shared keyword first', async () => {
    const docs = [
      ['Resetting a forgotten password', 'Steps to recover access to your account when you cannot log in.'],
      ['Sourdough bread', 'Mix flour, water and salt; let the dough ferment overnight.'],
      ['Marathon training plan', 'Build weekly mileage slowly and taper before the race.'],
      ['Quarterly tax filing', 'Estimated payments are due four times a year.'],
    ];
    for (const [title, content] of docs) expect((await t.req('POST', '/api/v1/nodes', { title, content })).status).toBe(201);
    await t.s.queue.idle();
    expect(real.embedder.dimension).toBe(512);

    const q = encodeURIComponent('locked out of my profile');
    const kw = await (await t.req('GET', `/api/v1/nodes?mode=keyword&query=${q}`)).json();
    expect(kw.data.map((n: { title: string }) => n.title)).not.toContain('Resetting a forgotten password');
    const sem = await (await t.req('GET', `/api/v1/nodes?mode=semantic&query=${q}`)).json();
    expect(sem.data[0].title).toBe('Resetting a forgotten password');
    const hy = await (await t.req('GET', `/api/v1/nodes?query=${q}`)).json();
    expect(hy.data[0].title).toBe('Resetting a forgotten password');
    expect(hy.data[0].match_provenance).toMatchObject({ semantic: true });
  });

  it('keeps answering requests while a backlog is embedded in the worker thread', async () => {
    await t.s.queue.stop();
    for (let i = 0; i < 150; i++) {
      await t.req('POST', '/api/v1/nodes', { title: `Backlog note ${i}`, content: `A paragraph about migrating birds, tide pools and lighthouse number ${i}.` });
    }
    // Hold the model's first batch until a request has been served: the request must be
    // answered while the worker is busy embedding, not between batches.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const busy = new Promise<void>((r) => (started = r));
    const embed = real.embedder.embed.bind(real.embedder);
    real.embedder.embed = async (texts) => {
      const out = embed(texts); // the worker starts on it now
      started();
      await held;
      return out;
    };
    await t.s.queue.start();
    await busy;
    const res = await t.req('GET', '/api/v1/nodes?mode=keyword&query=lighthouse&per_page=5');
    expect(res.status).toBe(200);
    expect((await res.json()).total_matches).toBe(150);
    expect(await t.s.queue.depth()).toBeGreaterThan(0);
    release();
    real.embedder.embed = embed;
    await t.s.queue.idle(120_000);
    expect(await t.s.queue.depth()).toBe(0);
  });

  it('records the model and dimension with the vector table', async () => {
    expect(await t.s.vectors.space()).toEqual({ model_id: 'use-lite-512@energetic-ai-0.2.0', dimension: 512 });
  });
});
