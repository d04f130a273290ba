// The bundled model in two real worker threads: a query submitted after a long background
// request is answered before it, both workers give the same vectors, and the background
// worker goes away after a quiet spell.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { dot } from '../../src/vectors/math.js';

const embedder = new WorkerEmbedder({ model: 'use-lite', cacheDir: mkdtempSync(join(tmpdir(), 'rz-2w-')) }, { workers: 2, backgroundIdleMs: 300 });
afterAll(() => embedder.close());

const note = (i: number) => `Note ${i}: the adduser and deluser commands create and remove users and groups on a Debian system, choosing UID and GID values from policy.`;

describe('two embedding workers', () => {
  it('answers a query while a long background request is still running, with the same vectors as the background worker', async () => {
    await embedder.ready;
    let backgroundDone = false;
    const background = embedder.embed(Array.from({ length: 96 }, (_, i) => note(i)), 'background').then((v) => ((backgroundDone = true), v));
    await new Promise((r) => setTimeout(r, 50));
    const [q] = await embedder.embed([note(5)], 'query');
    expect(backgroundDone).toBe(false);
    expect(embedder.stats.backgroundWorker).toBe(true);
    const vectors = await background;
    expect(vectors).toHaveLength(96);
    expect(dot(q, vectors[5])).toBeGreaterThan(0.999);
  }, 120_000);

  it('stops the background worker once it has been idle', async () => {
    for (let waited = 0; embedder.stats.backgroundWorker && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(embedder.stats.backgroundWorker).toBe(false);
    // and the foreground worker does background work again by itself
    expect(await embedder.embed([note(1), note(2)])).toHaveLength(2);
  }, 30_000);
});
