// The turn gate on a real server (at 2 a turn, injected): a burst of concurrent
// requests of every kind, far more than a turn starts, is answered in full and correctly.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';

let server: ChildServer;
let auth: string;

beforeAll(async () => {
  const dir = tempDataDir();
  server = await startServer(dir, 0, {}, { tuning: { requestsPerTurn: 2 } });
  auth = `ApiKey ${credentials(dir).api_key}`;
});
afterAll(async () => {
  await server?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/v1${path}`, { ...init, headers: { Authorization: auth, 'Content-Type': 'application/json', ...init.headers } });

describe('turn gate', () => {
  it('is on: the server says so at start', async () => {
    await vi.waitFor(() => expect(server.stderr()).toContain('at most 2 new requests start per event-loop turn'), { timeout: 5000 });
  });

  it('answers a burst of 60 mixed requests, every one correctly', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api('/nodes', { method: 'POST', body: JSON.stringify({ title: `Gate note ${i}`, content: `Mycorrhizal fungi, note ${i}` }) })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = await Promise.all(created.map(async (r) => ((await r.json()) as { id: string }).id));
    const burst = await Promise.all([
      ...ids.map((id) => api(`/nodes/${id}`).then(async (r) => ({ kind: 'get', status: r.status, body: (await r.json()) as { id: string } }))),
      ...ids.map((_, i) => api(`/nodes?mode=keyword&query=${encodeURIComponent(`note ${i}`)}`).then(async (r) => ({ kind: 'keyword', status: r.status, body: await r.json() }))),
      ...ids.map(() => api('/nodes?query=fungi&mode=semantic').then(async (r) => ({ kind: 'semantic', status: r.status, body: await r.json() }))),
    ]);
    expect(burst.filter((b) => b.status !== 200)).toEqual([]);
    expect(burst.filter((b) => b.kind === 'get').map((b) => (b.body as { id: string }).id)).toEqual(ids);
    for (const b of burst.filter((x) => x.kind === 'keyword')) expect((b.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });
});
