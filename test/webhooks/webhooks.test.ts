import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';
import { capturesApp, fixtureSite, postCapture, settled } from '../captures/helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { RETRY_SCHEDULE_MS } from '../../src/services/webhooks/delivery.js';

let t: TestApp;
let rx: Receiver;
beforeEach(async () => {
  t = await capturesApp();
  rx = await startReceiver();
});
afterEach(async () => {
  await t.close();
  await rx.close();
});

async function subscribe(events: string[], url = rx.url) {
  const res = await t.req('POST', '/api/v1/webhooks', { url, events });
  expect(res.status).toBe(201);
  const hook = await res.json();
  rx.secret = hook.secret;
  return hook as { id: string; secret: string; url: string; events: string[] };
}

async function deliveries(hookId: string) {
  const res = await t.req('GET', `/api/v1/webhooks/${hookId}/deliveries`);
  expect(res.status).toBe(200);
  return (await res.json()).data as Array<Record<string, any>>;
}

describe('webhook subscriptions', () => {
  it('shows the secret once, lists, gets and deletes; another tenant sees none of it', async () => {
    const hook = await subscribe(['node.created']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(24);
    const got = await (await t.req('GET', `/api/v1/webhooks/${hook.id}`)).json();
    expect(got).toEqual({ id: hook.id, url: rx.url, events: ['node.created'], created_at: expect.any(String) });
    const list = await (await t.req('GET', '/api/v1/webhooks')).json();
    expect(list.data.map((h: { id: string }) => h.id)).toEqual([hook.id]);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    const other = await t.tenant('beta');
    await expectProblem(await t.req('GET', `/api/v1/webhooks/${hook.id}`, undefined, other.auth), 404, 'not_found');
    await expectProblem(await t.req('GET', `/api/v1/webhooks/${hook.id}/deliveries`, undefined, other.auth), 404, 'not_found');
    await expectProblem(await t.req('DELETE', `/api/v1/webhooks/${hook.id}`, undefined, other.auth), 404, 'not_found');
    expect((await (await t.req('GET', '/api/v1/webhooks', undefined, other.auth)).json()).data).toEqual([]);
    expect((await t.req('DELETE', `/api/v1/webhooks/${hook.id}`)).status).toBe(204);
    await expectProblem(await t.req('GET', `/api/v1/webhooks/${hook.id}`), 404, 'not_found');
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    await expectProblem(await t.req('POST', '/api/v1/webhooks', { url: rx.url, events: ['node.exploded'] }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/webhooks', { url: rx.url, events: [] }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/webhooks', { url: 'ftp://example.com/x', events: ['node.created'] }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/webhooks', { url: 'not a url', events: ['node.created'] }), 400, 'validation_failed');
    await expectProblem(await t.req('POST', '/api/v1/webhooks', { url: rx.url, events: ['node.created'], extra: 1 }), 400, 'validation_failed');
    expect((await (await t.req('GET', '/api/v1/webhooks')).json()).data).toEqual([]);
  });

  it('refuses private, loopback and plain-HTTP URLs unless the operator allows private fetches', async () => {
    const strict = await makeTestApp();
    try {
      for (const url of ['https://127.0.0.1/hook', 'https://10.1.2.3/x', 'https://[::1]/x', 'https://localhost/x', 'http://example.com/x']) {
        await expectProblem(await strict.req('POST', '/api/v1/webhooks', { url, events: ['node.created'] }), 400, 'validation_failed');
      }
      expect((await strict.req('POST', '/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['node.created'] })).status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe('deliveries', () => {
  it('signs each delivery, retries a 500 on the schedule with the same webhook-id, and logs status and response time', async () => {
    const hook = await subscribe(['node.created']);
    rx.answer = (n) => (n === 0 ? 500 : 200);
    const node = await (await t.req('POST', '/api/v1/nodes', { title: 'Soil notes', content: 'loam' })).json();
    await t.s.queue.idle();
    expect(rx.got).toHaveLength(1);
    let log = await deliveries(hook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event_type: 'node.created', status: 'pending', attempts: 1, response_status: 500, error: 'the receiver answered HTTP 500' });
    expect(log[0].response_ms).toBeGreaterThanOrEqual(0);
    // The first retry waits 5 s; nothing is sent before.
    t.clock.advance(4_000);
    await t.s.queue.idle();
    expect(rx.got).toHaveLength(1);
    t.clock.advance(1_100);
    await t.s.queue.idle();
    expect(rx.got).toHaveLength(2);
    const [first, second] = rx.got;
    expect(first.verified && second.verified).toBe(true);
    expect(second.id).toBe(first.id);
    expect(second.id).toBe(log[0].id);
    // Each attempt is signed afresh: its timestamp is the time it was sent.
    expect(second.timestamp).toBe(Math.floor(t.clock.now() / 1000));
    expect(second.timestamp - first.timestamp).toBeGreaterThanOrEqual(5);
    expect(second.body).toEqual({ type: 'node.created', timestamp: expect.any(String), data: { id: node.id, title: 'Soil notes', tags: [], status: 'raw' } });
    log = await deliveries(hook.id);
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 2, response_status: 200, error: null, delivered_at: expect.any(String) });
  });

  it('keeps retrying a receiver that always fails for 24 hours, then marks the delivery failed', async () => {
    const hook = await subscribe(['node.created']);
    rx.secret = null; // the test's clock runs a day ahead: the receiver's 5-minute tolerance would refuse it
    rx.answer = () => 503;
    await t.req('POST', '/api/v1/nodes', { title: 'Down', content: 'x' });
    await t.s.queue.idle();
    const first = t.clock.now();
    for (const wait of RETRY_SCHEDULE_MS) {
      t.clock.advance(wait);
      await t.s.queue.idle();
    }
    expect(rx.got).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
    expect(new Set(rx.got.map((r) => r.id)).size).toBe(1);
    const span = t.clock.now() - first;
    expect(span).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(span).toBeLessThan(25 * 3600_000);
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: RETRY_SCHEDULE_MS.length + 1, response_status: 503 });
    t.clock.advance(48 * 3600_000);
    await t.s.queue.idle();
    expect(rx.got).toHaveLength(RETRY_SCHEDULE_MS.length + 1); // no more
  });

  it('a tampered secret fails verification at the receiver (the test can fail)', async () => {
    await subscribe(['node.created']);
    rx.secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    await t.req('POST', '/api/v1/nodes', { title: 'x', content: 'y' });
    await t.s.queue.idle();
    expect(rx.got).toHaveLength(1);
    expect(rx.got[0].verified).toBe(false);
  });

  it('sends only the subscribed events: node writes, captures, PARA filing', async () => {
    const hook = await subscribe(['node.created', 'node.updated', 'node.deleted', 'capture.completed', 'para.filed']);
    const area = await (await t.req('POST', '/api/v1/para', { category: 'areas', label: 'Garden' })).json();
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'Beans', content: 'runner beans' })).json();
    expect((await t.req('PATCH', `/api/v1/nodes/${n.id}`, { title: 'Broad beans', para_item_ids: [area.id] })).status).toBe(200);
    expect((await t.req('DELETE', `/api/v1/nodes/${n.id}`)).status).toBe(204);
    const capId = await postCapture(t, { title: 'A note', content_type: 'note', selected_text: 'Remember the compost' });
    const cap = await settled(t, capId);
    await t.s.queue.idle();
    const types = rx.unique().map((r) => `${r.type}:${(r.body.data.capture_id ?? r.body.data.id ?? r.body.data.node_id) as string}`);
    expect(types).toEqual(expect.arrayContaining([
      `node.created:${n.id}`, `para.filed:${n.id}`, `node.updated:${n.id}`, `node.deleted:${n.id}`, `node.created:${cap.node_id}`, `capture.completed:${capId}`,
    ]));
    expect(types).toHaveLength(6);
    const filed = rx.got.find((r) => r.type === 'para.filed')!;
    expect(filed.body.data).toEqual({ node_id: n.id, para_item_id: area.id, source: 'user' });
    expect(rx.got.every((r) => r.verified)).toBe(true);
    expect(new Set(rx.got.map((r) => r.id)).size).toBe(rx.got.length);
    expect((await deliveries(hook.id)).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('announces highlight.created when a highlight is added, once', async () => {
    await subscribe(['highlight.created']);
    const n = await (await t.req('POST', '/api/v1/nodes', { title: 'Compost', content: 'Turn the pile every two weeks so it heats up.' })).json();
    const h = await (await t.req('POST', `/api/v1/nodes/${n.id}/highlights`, { text: 'Turn the pile every two weeks', note: 'set a reminder' })).json();
    await t.s.queue.idle();
    const got = rx.unique().filter((r) => r.type === 'highlight.created');
    expect(got.map((r) => r.body.data)).toEqual([{ node_id: n.id, highlight_id: h.id, text: 'Turn the pile every two weeks' }]);
    expect(got[0].verified).toBe(true);
  });

  it('capture.failed is announced, and a replay re-sends with the same webhook-id', async () => {
    const hook = await subscribe(['capture.failed']);
    const site = await fixtureSite(); // no pages: a 404 fails the capture for good
    const capId = await postCapture(t, { title: 'Gone', content_type: 'article', url: site.url('/missing') });
    expect((await settled(t, capId)).status).toBe('failed');
    await site.close();
    await t.s.queue.idle();
    expect(rx.got.map((r) => r.type)).toEqual(['capture.failed']);
    expect(rx.got[0].body.data).toMatchObject({ capture_id: capId, stage: 'fetch' });
    const [d] = await deliveries(hook.id);
    const res = await t.req('POST', `/api/v1/webhooks/${hook.id}/deliveries/${d.id}/replay`);
    expect(res.status).toBe(202);
    await t.s.queue.idle();
    expect(rx.got.map((r) => r.id)).toEqual([d.id, d.id]);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    await expectProblem(await t.req('POST', `/api/v1/webhooks/${hook.id}/deliveries/msg_nope/replay`), 404, 'not_found');
  });

  it('a refused address is logged as a failed attempt, not sent', async () => {
    const strict = await makeTestApp();
    await strict.s.queue.start();
    try {
      const res = await strict.req('POST', '/api/v1/webhooks', { url: 'https://localtest.me.invalid/x', events: ['node.created'] });
      expect(res.status).toBe(201);
      const hook = await res.json();
      await strict.req('POST', '/api/v1/nodes', { title: 'x', content: 'y' });
      await strict.s.queue.idle();
      const [d] = (await (await strict.req('GET', `/api/v1/webhooks/${hook.id}/deliveries`)).json()).data;
      expect(d).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
      expect(d.error).toEqual(expect.any(String));
    } finally {
      await strict.close();
    }
  });
});
