// GET /nodes?updated_after=&updated_before=: the dashboard's date filter, in the plain list
// and in every search mode, with bad dates refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem, makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

const ids = async (path: string) => {
  const res = await t.req('GET', path);
  expect(res.status).toBe(200);
  return ((await res.json()).data as { id: string }[]).map((n) => n.id).sort();
};

describe('date filter', () => {
  it('keeps nodes updated in [updated_after, updated_before), in the list and every search mode', async () => {
    await t.s.queue.start();
    const at = async (title: string, day: string) => (await t.s.nodes.create(t.tenantId, { title, content: `${title} about quince jelly` }, { updated_at: `${day}T12:00:00.000Z`, created_at: `${day}T12:00:00.000Z` })).id;
    const old = await at('quince notes from spring', '2026-03-10');
    const mid = await at('quince notes from summer', '2026-07-01');
    const recent = await at('quince notes from autumn', '2026-10-30');
    await t.s.queue.idle();
    expect(await ids('/api/v1/nodes?updated_after=2026-07-01')).toEqual([mid, recent].sort());
    expect(await ids('/api/v1/nodes?updated_before=2026-07-01')).toEqual([old]);
    expect(await ids('/api/v1/nodes?updated_after=2026-06-01&updated_before=2026-08-01')).toEqual([mid]);
    expect(await ids('/api/v1/nodes?updated_after=2026-07-01T13:00:00%2B02:00')).toEqual([mid, recent].sort());
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      expect(await ids(`/api/v1/nodes?query=quince&mode=${mode}&updated_after=2026-07-01`), mode).toEqual([mid, recent].sort());
      expect(await ids(`/api/v1/nodes?query=quince&mode=${mode}&updated_before=2026-04-01`), mode).toEqual([old]);
    }
  });

  it('refuses dates it cannot read with a 400 naming the parameter', async () => {
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30T10:00', '2026-11-01T10:00:00', '1e9']) {
      const body = await expectProblem(await t.req('GET', `/api/v1/nodes?updated_after=${encodeURIComponent(bad)}`), 400, 'validation_failed');
      expect(JSON.stringify(body.errors ?? body.detail)).toMatch(/updated_after/);
    }
  });
});
