// The job may run again after a crash at any point; these re-runs must not create a
// second node or a second completion.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { capturesApp, postCapture, settled } from './helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await capturesApp();
});
afterEach(() => t.close());

const job = (tenantId: string, capture_id: string, run: number, attempts = 1) => ({ id: 999_999, tenantId, kind: 'capture_process', payload: { capture_id, run }, attempts });

describe('exactly once', () => {
  it('a job re-run after its final commit (crash before the queue deleted it) changes nothing', async () => {
    const id = await postCapture(t, { title: 'Once', content_type: 'note', selected_text: 'only once please' });
    const c = await settled(t, id);
    await t.s.pipeline.process(job(t.tenantId, id, 1));
    const again = await (await t.req('GET', `/api/v1/captures/${id}`)).json();
    expect(again).toMatchObject({ status: 'completed', node_id: c.node_id, updated_at: c.updated_at });
    expect((await (await t.req('GET', '/api/v1/nodes')).json()).total).toBe(1);
    const kinds = (await (await t.req('GET', `/api/v1/captures/${id}/activity`)).json()).data.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === 'completed')).toHaveLength(1);
  });

  it('a run interrupted mid-pipeline is redone from the start with clean provenance', async () => {
    const id = await postCapture(t, { title: 'Twice started', content_type: 'note', selected_text: 'a run that died half way' });
    // The first claim "dies": simulate by recording a partial run, then let the real job run.
    await t.s.repos.captures.addStage(t.tenantId, id, { run: 1, stage: 'fetch', started_at: 'x', finished_at: 'x', model: 'stale', output: '{}' });
    const c = await settled(t, id);
    expect(c.status).toBe('completed');
    const prov = await (await t.req('GET', `/api/v1/captures/${id}/provenance`)).json();
    expect(prov.stages.map((s: { model: string }) => s.model)).not.toContain('stale');
    expect(prov.stages).toHaveLength(7);
  });

  it('a job of an older run does nothing once the capture was reingested', async () => {
    const id = await postCapture(t, { title: 'Old run', content_type: 'note', selected_text: 'first text' });
    await settled(t, id);
    await t.req('POST', `/api/v1/captures/${id}/reingest`);
    await t.s.pipeline.process(job(t.tenantId, id, 1));
    expect((await (await t.req('GET', `/api/v1/captures/${id}`)).json()).status).toBe('pending');
    expect((await settled(t, id)).status).toBe('completed');
  });

  it('a capture whose process keeps dying is failed rather than retried forever', async () => {
    await t.s.queue.stop(); // only the job we hand-run may touch it
    const id = await postCapture(t, { title: 'Poison', content_type: 'note', selected_text: 'x' });
    await t.s.pipeline.process(job(t.tenantId, id, 1, 50));
    const c = await (await t.req('GET', `/api/v1/captures/${id}`)).json();
    expect(c).toMatchObject({ status: 'failed', error: 'processing was interrupted too many times' });
  });
});
