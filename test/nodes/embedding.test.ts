import { raw } from '../helpers/raw.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { makeTestApp } from '../helpers/app.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'rz-emb-')), 'rhizome.db');

describe('embedding jobs', () => {
  it('queued embeddings survive a restart and are computed by the next process', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await (await a.req('POST', '/api/v1/nodes', { title: `pending ${i}` })).json()).id);
    expect(await a.s.queue.depth()).toBe(5);
    await a.close(); // never started: the jobs are only rows in the file

    const b = await makeTestApp({ dbPath: file });
    await b.s.queue.start();
    await b.s.queue.idle();
    for (const id of ids) expect(await b.s.vectors.get(a.tenantId, id)).not.toBeNull();
    expect(await b.s.queue.depth()).toBe(0);
    await b.close();
  });

  it('a job left running by a dead process is resumed', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file });
    const n = await (await a.req('POST', '/api/v1/nodes', { title: 'interrupted' })).json();
    await raw(a.s.db).prepare("UPDATE jobs SET status = 'running', attempts = 1").run();
    await a.close();
    const b = await makeTestApp({ dbPath: file });
    await b.s.queue.start();
    await b.s.queue.idle();
    expect(await b.s.vectors.get(a.tenantId, n.id)).not.toBeNull();
    await b.close();
  });

  it('a model change recreates the vector table and re-embeds every node in the background', async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(64) });
    await a.s.queue.start();
    const n = await (await a.req('POST', '/api/v1/nodes', { title: 'walnut orchard' })).json();
    await a.s.queue.idle();
    expect((await a.s.vectors.get(a.tenantId, n.id))!.length).toBe(64);
    await a.close();

    const b = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(32) });
    await b.s.embedding.init();
    expect(await b.s.vectors.space()).toEqual({ model_id: 'hash-32', dimension: 32 });
    await b.s.queue.start();
    await b.s.queue.idle();
    expect((await b.s.vectors.get(a.tenantId, n.id))!.length).toBe(32);
    const res = await b.req('GET', '/api/v1/nodes?mode=semantic&query=walnut%20orchard', undefined, `ApiKey ${a.key}`);
    expect((await res.json()).data[0].id).toBe(n.id);
    await b.close();
  });

  it("queues a model change's backlog in batches, with other work running between them", async () => {
    const file = dbFile();
    const a = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(64) });
    for (let i = 0; i < 60; i++) await a.req('POST', '/api/v1/nodes', { title: `backlog ${i}` });
    // The jobs written with the nodes are gone: the backlog is the only one to queue them.
    await raw(a.s.db).prepare('DELETE FROM jobs').run();
    await a.close();

    const b = await makeTestApp({ dbPath: file, embedder: new HashEmbedder(32), config: { tuning: { backlogBatch: 10 } } });
    // A probe that runs once per event-loop turn: it sees the backlog part-way through only
    // if the queueing hands the loop back between batches (in one transaction it saw 0, then 60).
    const seen = new Set<number>();
    let probing = true;
    const probe = (async () => {
      while (probing) {
        seen.add(Number(await raw(b.s.db).prepare('SELECT count(*) FROM jobs').pluck().get()));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await b.s.embedding.init();
    probing = false;
    await probe;
    expect(Number(await raw(b.s.db).prepare('SELECT count(*) FROM jobs').pluck().get())).toBe(60);
    expect([...seen].filter((n) => n > 0 && n < 60).length, JSON.stringify([...seen])).toBeGreaterThan(0);
    await b.s.queue.start();
    await b.s.queue.idle();
    expect(Number(await raw(b.s.db).prepare('SELECT count(*) FROM node_vectors').pluck().get())).toBe(60);
    await b.close();
  });

  it('editing the text re-embeds; editing only the status does not', async () => {
    const t = await makeTestApp();
    await t.s.queue.start();
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'first words' })).json();
    await t.s.queue.idle();
    const before = Array.from((await t.s.vectors.get(t.tenantId, n.id))!);
    await t.req('PATCH', `/api/v1/nodes/${n.id}`, { status: 'validated' });
    expect(await t.s.queue.depth()).toBe(0);
    await t.req('PATCH', `/api/v1/nodes/${n.id}`, { content: 'completely different text about herons' });
    await t.s.queue.idle();
    expect(Array.from((await t.s.vectors.get(t.tenantId, n.id))!)).not.toEqual(before);
    await t.close();
  });
});
