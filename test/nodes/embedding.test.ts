import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { WorkerEmbedder } from '../../src/embed/worker-embedder.js';
import { makeTestApp } from '../helpers/app.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'rz-emb-')), 'rhizome.db');

describe('embedding jobs', () => {
  it('queued embeddings survive a restart and are computed by the next process', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await (await a.req('POST', '/api/v1/nodes', { title: `pending ${i}` })).json()).id);
    expect(a.s.queue.depth()).toBe(5);
    await a.close(); // never started: the jobs are only rows in the file

    const b = await makeTestApp({ dbPath: file });
    b.s.queue.start();
    await b.s.queue.idle();
    for (const id of ids) expect(b.s.vectors.get(a.tenantId, id)).not.toBeNull();
    expect(b.s.queue.depth()).toBe(0);
    await b.close();
  });

  it('a job left running by a dead process is resumed', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file });
    const n = await (await a.req('POST', '/api/v1/nodes', { title: 'interrupted' })).json();
    a.s.db.prepare("UPDATE jobs SET status = 'running', attempts = 1").run();
    await a.close();
    const b = await makeTestApp({ dbPath: file });
    b.s.queue.start();
    await b.s.queue.idle();
    expect(b.s.vectors.get(a.tenantId, n.id)).not.toBeNull();
    await b.close();
  });

  it('a model change recreates the vector table and re-embeds every node in the background', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(64) });
    a.s.queue.start();
    const n = await (await a.req('POST', '/api/v1/nodes', { title: 'walnut orchard' })).json();
    await a.s.queue.idle();
    expect(a.s.vectors.get(a.tenantId, n.id)!.length).toBe(64);
    await a.close();

    const b = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(32) });
    await b.s.embedding.init();
    expect(b.s.vectors.space()).toEqual({ model_id: 'hash-32', dimension: 32 });
    b.s.queue.start();
    await b.s.queue.idle();
    expect(b.s.vectors.get(a.tenantId, n.id)!.length).toBe(32);
    const res = await b.req('GET', '/api/v1/nodes?mode=semantic&query=walnut%20orchard', undefined, `ApiKey ${a.key}`);
    expect((await res.json()).data[0].id).toBe(n.id);
    await b.close();
  });

  it('editing the text re-embeds; editing only the status does not', async () => {
    const t = await makeTestApp();
    t.s.queue.start();
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'first words' })).json();
    await t.s.queue.idle();
    const before = Array.from(t.s.vectors.get(t.tenantId, n.id)!);
    await t.req('PATCH', `/api/v1/nodes/${n.id}`, { status: 'validated' });
    expect(t.s.queue.depth()).toBe(0);
    await t.req('PATCH', `/api/v1/nodes/${n.id}`, { content: 'completely different text about herons' });
    await t.s.queue.idle();
    expect(Array.from(t.s.vectors.get(t.tenantId, n.id)!)).not.toEqual(before);
    await t.close();
  });
});

describe('the transformers.js provider', () => {
  it('runs a local model folder offline in the worker (tiny random BERT: the path, not the meaning)', async () => {
    const dir = resolve('../shared/models/tiny-random-bert');
    const embedder = new WorkerEmbedder({ model: `local:${dir}`, cacheDir: mkdtempSync(join(tmpdir(), 'rz-tf-')) });
    try {
      const [v1, v2] = await embedder.embed(['hello world', 'a different sentence']);
      expect(embedder.modelId).toBe('local:tiny-random-bert');
      expect(embedder.dimension).toBe(32);
      expect(v1.length).toBe(32);
      expect(Math.hypot(...v1)).toBeCloseTo(1, 4);
      expect(Array.from(v1)).not.toEqual(Array.from(v2));
      const t = await makeTestApp({ embedder });
      t.s.queue.start();
      const n = await (await t.req('POST', '/api/v1/nodes', { title: 'tiny model node' })).json();
      await t.s.queue.idle();
      expect(t.s.vectors.space()).toEqual({ model_id: 'local:tiny-random-bert', dimension: 32 });
      expect(t.s.vectors.get(t.tenantId, n.id)!.length).toBe(32);
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
