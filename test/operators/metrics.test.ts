// GET /metrics as Prometheus scrapes it: the text format, request latency by route pattern
// (never the raw path) and status, the job queue and its oldest due job, the embedding
// backlog, tenants by status, the vector indexes held in memory, process metrics, and the
// instance id the X-Rhizome-Instance header names.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { TEST_BACKEND } from '../helpers/test-database.js';
import { operatorAuth, sample } from './helpers.js';

let t: TestApp;
let op: string;

beforeEach(async () => {
  t = await makeTestApp();
  op = await operatorAuth(t);
});
afterEach(() => t.close());

async function scrape(): Promise<string> {
  const res = await t.req('GET', '/metrics', undefined, op);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('/metrics', () => {
  it('request latency by route pattern and status, never by raw path', async () => {
    const node = (await (await t.req('POST', '/api/v1/nodes', { title: 'Metered' })).json()) as { id: string };
    for (let i = 0; i < 2; i++) expect((await t.req('GET', `/api/v1/nodes/${node.id}`)).status).toBe(200);
    expect((await t.req('GET', '/api/v1/nodes/nod_missing')).status).toBe(404);
    expect((await t.req('GET', `/api/v1/nodes/${node.id}`, undefined, null)).status).toBe(401);
    expect((await t.req('GET', '/no/such/place')).status).toBe(404);
    const text = await scrape();
    const count = (route: string, status: string, method = 'GET') => sample(text, 'rhizome_http_request_duration_seconds_count', { method, route, status });
    expect(count('/api/v1/nodes/:id', '200')).toBe(2);
    expect(count('/api/v1/nodes/:id', '404')).toBe(1);
    expect(count('/api/v1/nodes/:id', '401')).toBe(1); // refused before its handler: still counted under the route it asked for
    expect(count('/api/v1/nodes', '201', 'POST')).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    expect(sample(text, 'rhizome_http_request_duration_seconds_bucket', { route: '/api/v1/nodes/:id', status: '200', le: '+Inf' })).toBe(2);
    expect(text).not.toContain(node.id);
    expect(text).not.toContain('/no/such/place');
  });

  it('the job queue, its oldest due job and the embedding backlog; then the vector index held in memory', async () => {
    for (const title of ['One', 'Two', 'Three']) expect((await t.req('POST', '/api/v1/nodes', { title, content: `${title} about compost` })).status).toBe(201);
    t.clock.advance(45_000);
    let text = await scrape();
    expect(sample(text, 'rhizome_jobs', { kind: 'embed_node', state: 'queued' })).toBe(3);
    expect(sample(text, 'rhizome_embedding_queue_length')).toBe(3);
    expect(sample(text, 'rhizome_jobs_oldest_queued_age_seconds', { kind: 'embed_node' })).toBeGreaterThanOrEqual(45);
    expect(sample(text, 'rhizome_tenants_loaded')).toBe(0);

    t.s.queue.start();
    await t.s.queue.idle();
    await t.s.queue.stop();
    // A search loads the tenant's index, as on a running server.
    expect((await t.req('GET', '/api/v1/nodes?query=compost&mode=semantic')).status).toBe(200);
    await t.s.vectors.warm(t.tenantId);
    text = await scrape();
    expect(sample(text, 'rhizome_embedding_queue_length')).toBe(0);
    expect(sample(text, 'rhizome_jobs', { kind: 'embed_node', state: 'queued' })).toBeUndefined();
    expect(sample(text, 'rhizome_tenants_loaded')).toBe(1);
    expect(sample(text, 'rhizome_vector_index_vectors')).toBe(3);
    expect(sample(text, 'rhizome_vector_index_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'rhizome_keyword_memory_bytes')).toBeGreaterThanOrEqual(0);
    // The PostgreSQL pool: its connections by state; SQLite has no pool and no such series.
    if (TEST_BACKEND === 'postgres') {
      expect(sample(text, 'rhizome_db_pool_connections', { state: 'size' })).toBe(10);
      expect(sample(text, 'rhizome_db_pool_connections', { state: 'open' })).toBeGreaterThan(0);
      expect(sample(text, 'rhizome_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
    } else expect(sample(text, 'rhizome_db_pool_connections', { state: 'size' })).toBeUndefined();
  });

  it('tenants by status, the evictions counter, process metrics, and the instance the header names', async () => {
    const beta = await t.tenant('beta');
    let text = await scrape();
    expect(sample(text, 'rhizome_tenants', { status: 'active' })).toBe(2);
    expect(sample(text, 'rhizome_tenants', { status: 'suspended' })).toBe(0);
    expect((await t.req('POST', `/api/v1/admin/tenants/${beta.tenantId}/suspend`, undefined, op)).status).toBe(200);
    text = await scrape();
    expect(sample(text, 'rhizome_tenants', { status: 'active' })).toBe(1);
    expect(sample(text, 'rhizome_tenants', { status: 'suspended' })).toBe(1);

    expect(text).toMatch(/^# TYPE rhizome_index_evictions_total counter$/m);
    t.s.metrics.evictions.inc({ index: 'vectors' });
    expect(sample(await scrape(), 'rhizome_index_evictions_total', { index: 'vectors' })).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    const res = await t.req('GET', '/health', undefined, null);
    const instance = res.headers.get('x-rhizome-instance');
    expect(instance).toMatch(/^[0-9a-f]{8}$/);
    expect(sample(text, 'rhizome_instance_info', { instance_id: instance! })).toBe(1);
    // Errors carry it too.
    expect((await t.req('GET', '/api/v1/nodes', undefined, null)).headers.get('x-rhizome-instance')).toBe(instance);
  });
});
