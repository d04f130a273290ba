// kill -9 the real server while webhook deliveries are in flight, restart it on the same
// data: every node acknowledged with 201 is announced (no event lost), and a repeated
// delivery only ever repeats a webhook-id the receiver has seen (at least once, never a
// second event for the same change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { startReceiver, type Receiver } from './receiver.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('webhook delivery survives kill -9', () => {
  it('loses no event and duplicates none beyond at-least-once', async () => {
    const env = { RHIZOME_ALLOW_PRIVATE_FETCH: '1' };
    const dir = tempDataDir();
    let server: ChildServer | undefined = await startServer(dir, 0, env);
    try {
      const headers = { Authorization: `ApiKey ${credentials(dir).api_key}`, 'content-type': 'application/json' };
      const hook = await (await fetch(`${server.url}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: rx.url, events: ['node.created'] }) })).json();
      rx.secret = hook.secret;
      // The receiver is slow: deliveries are still on the wire when the process dies.
      rx.answer = () => new Promise((r) => setTimeout(() => r(200), 150));
      const acked: string[] = [];
      const post = async (i: number, base: string) => {
        const res = await fetch(`${base}/api/v1/nodes`, { method: 'POST', headers, body: JSON.stringify({ title: `Note ${i}`, content: `about soil ${i}` }) });
        if (res.status === 201) acked.push((await res.json()).id);
      };
      for (let i = 0; i < 20; i++) await post(i, server.url);
      const deadline0 = Date.now() + 60_000;
      while (rx.got.length < 2 && Date.now() < deadline0) await new Promise((r) => setTimeout(r, 20));
      const racing = Array.from({ length: 6 }, (_, i) => post(100 + i, server!.url).catch(() => undefined));
      await server.kill();
      await Promise.all(racing);
      const heardBeforeKill = rx.unique().length;
      expect(heardBeforeKill).toBeLessThan(acked.length); // the kill landed mid-delivery

      server = await startServer(dir, 0, env);
      const nodes = await (await fetch(`${server.url}/api/v1/nodes?per_page=100`, { headers })).json();
      const committed = new Set<string>(nodes.data.map((n: { id: string }) => n.id));
      for (const id of acked) expect(committed.has(id)).toBe(true);
      const deadline = Date.now() + 120_000;
      const announced = () => new Set(rx.unique().map((r) => r.body.data.id as string));
      while (announced().size < committed.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect([...announced()].sort()).toEqual([...committed].sort());
      expect(rx.got.every((r) => r.verified)).toBe(true);
      // One webhook-id per node: any repeat is the same message again, never a second event.
      const idsByNode = new Map<string, Set<string>>();
      for (const r of rx.got) idsByNode.set(r.body.data.id as string, (idsByNode.get(r.body.data.id as string) ?? new Set()).add(r.id));
      for (const [node, ids] of idsByNode) expect(ids.size, node).toBe(1);
      const log = await (await fetch(`${server.url}/api/v1/webhooks/${hook.id}/deliveries?limit=500`, { headers })).json();
      expect(log.data).toHaveLength(committed.size);
      expect(server.stdout() + server.stderr()).toMatch(/resuming \d+ job/);
    } finally {
      await server?.stop();
    }
  }, 240_000);
});
