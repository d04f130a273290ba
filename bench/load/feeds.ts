// The `feeds-200` configuration's background: 200 feeds on a local feed server, subscribed
// (and their first items captured) before the traffic starts, then polled throughout the
// run: "poll now" for each feed in turn, 20 a second (the job queue, shared with embedding,
// runs as many as it can: a poll already queued absorbs the next request for that feed);
// a real 5-minute interval would be 0.7 a second. Most polls are conditional and answered
// 304; one in 20 brings a new item, which becomes a capture (fetched page, extraction,
// embedding) like any other.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { BenchServer } from './server.js';
import { drained } from './server.js';

export const BENCH_FEEDS = 200;
const POLL_EVERY_MS = 10_000;
const NEW_ITEM_ONE_IN = 20;

export interface FeedLoad {
  polls: number;
  notModified: number;
  newItems: number;
  stop(): Promise<void>;
}

function rss(feed: number, items: number): string {
  const entries = Array.from({ length: items }, (_, i) => `<item><title>Feed ${feed} note ${i}</title><link>/p/${feed}/${i}</link><guid>f${feed}-${i}</guid><description>Notes on garden topic ${feed}-${i}.</description></item>`);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Bench feed ${feed}</title><link>http://example.com/${feed}</link>${entries.reverse().join('')}</channel></rss>`;
}

/** Serves /f/<n>.xml with `items[n]` items (ETag by content) and /p/<n>/<i> article pages. */
async function feedServer(items: number[], counts: FeedLoad): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const feed = /^\/f\/(\d+)\.xml$/.exec(req.url ?? '');
    if (feed) {
      const n = Number(feed[1]);
      const body = rss(n, items[n]);
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 12)}"`;
      counts.polls++;
      if (req.headers['if-none-match'] === etag) {
        counts.notModified++;
        return res.writeHead(304, { etag }).end();
      }
      return res.writeHead(200, { 'content-type': 'application/rss+xml', etag }).end(body);
    }
    const page = /^\/p\/(\d+)\/(\d+)$/.exec(req.url ?? '');
    if (page) return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>Note ${page[1]}-${page[2]}</title></head><body><article><h1>Note ${page[1]}-${page[2]}</h1><p>${'Mulch, compost and seedlings in the spring garden. '.repeat(20)}</p></article></body></html>`);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return { server, base: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
}

/** Subscribes the feeds and waits for their first items to be captured; returns the poller to start with the traffic. */
export async function prepareFeeds(s: BenchServer): Promise<{ start(seconds: number): FeedLoad }> {
  const items = Array.from({ length: BENCH_FEEDS }, () => 1);
  const counts: FeedLoad = { polls: 0, notModified: 0, newItems: 0, stop: async () => {} };
  const { server, base } = await feedServer(items, counts);
  const headers = { Authorization: `ApiKey ${s.key}`, 'Content-Type': 'application/json' };
  const ids: string[] = [];
  for (let n = 0; n < BENCH_FEEDS; n++) {
    const res = await fetch(`${s.url}/api/v1/feeds`, { method: 'POST', headers, body: JSON.stringify({ url: `${base}/f/${n}.xml`, interval_minutes: 5 }) });
    if (res.status !== 201) throw new Error(`subscribing feed ${n}: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await drained(s, 600_000, BENCH_FEEDS); // every feed's next poll stays queued
  return {
    start(seconds: number) {
      // Count the run's polls only (not the subscriptions' and first polls').
      counts.polls = counts.notModified = counts.newItems = 0;
      const stopAt = Date.now() + seconds * 1000;
      let polled = 0;
      const tick = async () => {
        // Every feed once per POLL_EVERY_MS, spread evenly.
        const n = polled++ % BENCH_FEEDS;
        if (Math.random() < 1 / NEW_ITEM_ONE_IN) {
          items[n]++;
          counts.newItems++;
        }
        await fetch(`${s.url}/api/v1/feeds/${ids[n]}/poll`, { method: 'POST', headers }).then((r) => r.body?.cancel()).catch(() => undefined);
      };
      const timer = setInterval(() => {
        if (Date.now() < stopAt) void tick();
      }, POLL_EVERY_MS / BENCH_FEEDS);
      counts.stop = async () => {
        clearInterval(timer);
        await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
      };
      return counts;
    },
  };
}
