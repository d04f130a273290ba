// A suspended tenant's background jobs are paused, not run: with the queue working, its
// queued embedding jobs stay queued (and /metrics shows them as paused) while another
// tenant's run; once the operator resumes it, every one of them runs and nothing is lost.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { operatorAuth, sample } from './helpers.js';

let t: TestApp;
let op: string;
const admin = (method: string, path: string, body?: unknown) => t.req(method, `/api/v1/admin${path}`, body, op);

beforeEach(async () => {
  t = await makeTestApp();
  op = await operatorAuth(t);
});
afterEach(() => t.close());

it("suspending a tenant pauses its queued jobs; resuming runs every one of them; other tenants' jobs carry on", async () => {
  const made = await admin('POST', '/tenants', { name: 'beta' });
  expect(made.status).toBe(201);
  const beta = (await made.json()) as { id: string; api_key: string };
  const key = `ApiKey ${beta.api_key}`;
  for (const title of ['Compost heap', 'Compost tea']) expect((await t.req('POST', '/api/v1/nodes', { title, content: `${title}: turn it weekly` }, key)).status).toBe(201);
  expect((await t.req('POST', '/api/v1/nodes', { title: 'Alpha compost', content: 'Compost for alpha' })).status).toBe(201);
  const queued = async (auth: string) => ((await (await t.req('GET', '/health', undefined, auth)).json()) as { jobs: { queued: number } }).jobs.queued;
  expect(await queued(op)).toBe(3);

  expect((await admin('POST', `/tenants/${beta.id}/suspend`)).status).toBe(200);
  await t.s.queue.start();
  // Idle means nothing claimable is left: alpha's job ran, beta's two were passed over.
  await t.s.queue.idle();
  expect(await queued(op)).toBe(2);
  expect(await queued(`ApiKey ${t.key}`)).toBe(0);
  const metrics = await (await t.req('GET', '/metrics', undefined, op)).text();
  expect(sample(metrics, 'rhizome_jobs', { kind: 'embed_node', state: 'paused' })).toBe(2);
  expect(sample(metrics, 'rhizome_jobs', { kind: 'embed_node', state: 'queued' })).toBeUndefined();
  expect(sample(metrics, 'rhizome_jobs_oldest_queued_age_seconds', { kind: 'embed_node' })).toBeUndefined();
  // Still paused after more looks at the queue.
  await t.s.queue.idle();
  expect(await queued(op)).toBe(2);

  expect((await admin('POST', `/tenants/${beta.id}/resume`)).status).toBe(200);
  await t.s.queue.idle();
  expect(await queued(key)).toBe(0);
  expect(await queued(op)).toBe(0);
  const found = (await (await t.req('GET', '/api/v1/nodes?query=compost&mode=semantic', undefined, key)).json()) as { data: Array<{ title: string }> };
  expect(found.data.map((n) => n.title).sort()).toEqual(['Compost heap', 'Compost tea']);
  const after = await (await t.req('GET', '/metrics', undefined, op)).text();
  expect(sample(after, 'rhizome_jobs', { kind: 'embed_node', state: 'paused' })).toBeUndefined();
});
