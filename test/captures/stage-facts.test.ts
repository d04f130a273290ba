// The capture page's stage panel and timeline come from the same facts: a failure in the
// timeline is the failed stage on the panel, an older run's provenance is not this run's.
import { describe, expect, it } from 'vitest';
import { runFacts } from '../../src/web/captures/stage-facts.js';
import type { Activity, Capture, ProvenanceStage } from '../../src/web/lib/types.js';

const cap = (over: Partial<Capture>): Capture => ({
  id: 'cap_x', status: 'failed', title: 't', url: 'https://a.example/', url_normalized: null, content_type: 'article', why: null, selected_text: null,
  source: 'api', node_id: null, error: null, metadata: {}, attempts: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', processed_at: null, ...over,
} as Capture);
const ev = (kind: string, detail: Record<string, unknown> = {}): Activity => ({ id: kind, kind, at: '2026-01-01T00:00:01Z', detail }) as Activity;
const stage = (name: string): ProvenanceStage => ({ stage: name, started_at: '2026-01-01T00:00:01Z', finished_at: '2026-01-01T00:00:02Z', model: 'm', output: {} }) as ProvenanceStage;

describe('runFacts', () => {
  it('a fetch that failed is the failed Fetch stage, the rest not run', () => {
    const f = runFacts(cap({ error: 'HTTP 404' }), null, [], [ev('created'), ev('queued'), ev('processing_started'), ev('failed', { stage: 'fetch', error: 'HTTP 404', run: 1 })]);
    expect(f.untouched).toBe(false);
    expect(f.stages[0]).toMatchObject({ stage: 'fetch', state: 'failed', error: 'HTTP 404' });
    expect(f.stages.slice(1).every((s) => s.state === 'not run')).toBe(true);
  });

  it('a transient failure waiting for its retry says so', () => {
    const f = runFacts(cap({ status: 'pending', error: 'timed out' }), null, [], [ev('created'), ev('processing_started'), ev('retry_scheduled', { stage: 'fetch', error: 'timed out' })]);
    expect(f.stages[0]).toMatchObject({ state: 'retrying', error: 'timed out' });
  });

  it('a failure after some stages: done, then failed, then not run', () => {
    const f = runFacts(cap({}), 1, [stage('fetch'), stage('extract')], [ev('created'), ev('failed', { stage: 'summarize', error: 'boom', run: 1 })]);
    expect(f.stages.map((s) => s.state)).toEqual(['done', 'done', 'failed', 'not run', 'not run', 'not run', 'not run']);
  });

  it('a retried capture does not show the previous run\'s stages or failure', () => {
    const activity = [ev('created'), ev('failed', { stage: 'fetch', error: 'old', run: 1 }), ev('retried', { run: 2 }), ev('queued')];
    const f = runFacts(cap({ status: 'pending', attempts: 2 }), 1, [stage('fetch')], activity);
    expect(f.untouched).toBe(true);
    expect(f.stages.every((s) => s.state === 'waiting')).toBe(true);
  });

  it('an interrupted run (no stage named) reports the run error', () => {
    const f = runFacts(cap({}), null, [], [ev('created'), ev('failed', { error: 'processing was interrupted too many times', run: 1 })]);
    expect(f.runError).toMatch(/interrupted/);
    expect(f.stages.every((s) => s.state === 'not run')).toBe(true);
  });
});
