// Query vectors through the HTTP API: a repeated query costs no model call, identical
// queries in flight share one, queries are sent with `query` priority, and
// A cache size of 0 (tuning a test injects) turns the cache off.
import { afterEach, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

class CountingEmbedder extends HashEmbedder {
  calls: { texts: string[]; priority: string }[] = [];
  async embed(texts: string[], priority: 'query' | 'background' = 'background') {
    this.calls.push({ texts, priority });
    await new Promise((r) => setTimeout(r, 5));
    return super.embed(texts);
  }
  queryCalls(text: string) {
    return this.calls.filter((c) => c.priority === 'query' && c.texts.includes(text)).length;
  }
}

let t: TestApp | undefined;
afterEach(async () => t?.close());

async function app(queryCache?: number) {
  const embedder = new CountingEmbedder();
  t = await makeTestApp({ embedder, config: queryCache === undefined ? {} : { tuning: { queryCache } } });
  await t.req('POST', '/api/v1/nodes', { title: 'Sourdough starter', content: 'Feed the starter with flour and water every day.' });
  await t.s.queue.start();
  await t.s.queue.idle();
  return embedder;
}

const search = (q: string) => t!.req('GET', `/api/v1/nodes?mode=semantic&query=${encodeURIComponent(q)}`);

describe('query vectors', () => {
  it('a repeated query is embedded once, with query priority, and answers the same', async () => {
    const e = await app();
    const first = await (await search('bread starter feeding')).json();
    const second = await (await search('bread starter feeding')).json();
    expect(second).toEqual(first);
    expect(e.queryCalls('bread starter feeding')).toBe(1);
    expect(e.calls.some((c) => c.priority === 'background')).toBe(true); // the note itself
  });

  it('identical queries in flight share one model call', async () => {
    const e = await app();
    const answers = await Promise.all(Array.from({ length: 5 }, () => search('flour and water')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(e.queryCalls('flour and water')).toBe(1);
  });

  it('a cache of size 0 embeds every query', async () => {
    const e = await app(0);
    await search('daily feeding');
    await search('daily feeding');
    expect(e.queryCalls('daily feeding')).toBe(2);
  });
});
