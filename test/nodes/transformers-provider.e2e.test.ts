// The transformers.js provider in the real worker thread, offline, with the tiny
// random-weight BERT kept in test/fixtures/models (its vectors carry no meaning: this
// tests the loading and inference path).
import { raw } from '../helpers/raw.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { makeTestApp } from '../helpers/app.js';

describe('the transformers.js provider', () => {
  it('runs a local model folder offline in the worker (tiny random BERT: the path, not the meaning)', async () => {
    const dir = resolve('test/fixtures/models/tiny-random-bert');
    const embedder = new WorkerEmbedder({ model: `local:${dir}`, cacheDir: mkdtempSync(join(tmpdir(), 'rz-tf-')) });
    try {
      const [v1, v2] = await embedder.embed(['hello world', 'a different sentence']);
      expect(embedder.modelId).toBe('local:tiny-random-bert');
      expect(embedder.dimension).toBe(32);
      expect(v1.length).toBe(32);
      expect(Math.hypot(...v1)).toBeCloseTo(1, 4);
      expect(Array.from(v1)).not.toEqual(Array.from(v2));
      const t = await makeTestApp({ embedder });
      await t.s.queue.start();
      const n = await (await t.req('POST', '/api/v1/nodes', { title: 'tiny model node' })).json();
      await t.s.queue.idle();
      expect(await t.s.vectors.space()).toEqual({ model_id: 'local:tiny-random-bert', dimension: 32 });
      expect((await t.s.vectors.get(t.tenantId, n.id))!.length).toBe(32);
      // Its own calibration: a model that cannot tell related from unrelated texts gets a
      // floor at the top of its range, so nothing is drawn in by meaning alone.
      const cal = JSON.parse(await raw(t.s.db).prepare("SELECT calibration FROM embedding_calibrations WHERE model_id = 'local:tiny-random-bert'").pluck().get() as string);
      expect(cal.query.auc).toBeLessThan(0.6);
      expect(cal.query.floor).toBeGreaterThan(0.9);
      const r = await (await t.req('GET', '/api/v1/nodes?mode=semantic&query=quantum%20chromodynamics')).json();
      expect(r.data).toEqual([]);
      await t.close();
    } finally {
      await embedder.close();
    }
  });

  it('reports a clear error when a hub model cannot be downloaded (offline)', async () => {
    const embedder = new WorkerEmbedder({ model: 'Xenova/definitely-not-here', cacheDir: mkdtempSync(join(tmpdir(), 'rz-tf-')) });
    await expect(embedder.embed(['x'])).rejects.toThrow(/embedding model failed to load/);
    expect(embedder.state).toBe('error');
    await embedder.close();
  });
});
