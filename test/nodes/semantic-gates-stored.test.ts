// A tenant's semantic gate is measured once and kept in storage: another process (a second
// app on the same database) meeting the tenant cold reads the row instead of running the
// sixty probes, and ranks the same; the gate is measured again once the notes move by a tenth.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
const open = async (dbPath: string) => {
  const a = await makeTestApp({ dbPath });
  apps.push(a);
  return a;
};
const ids = async (a: TestApp, q: string) => {
  const res = await a.req('GET', `/api/v1/nodes?query=${encodeURIComponent(q)}&mode=semantic`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ id: string }> }).data.map((n) => n.id);
};
const addNotes = async (a: TestApp, from: number, to: number) => {
  await a.s.queue.start();
  for (let i = from; i < to; i++) await a.req('POST', '/api/v1/nodes', { title: `Garden note ${i}`, content: `Compost, seedlings and watering schedule number ${i}.` });
  await a.s.queue.idle();
};

it("a tenant's gate measured by one process is read, not measured, by the next; measured again when its notes move by a tenth", async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'rhizome-gates-')), 'rhizome.db');
  const a = await open(dbPath);
  await addNotes(a, 0, 40);
  const measuring = vi.spyOn(a.s.vectors, 'bestSimilarity');
  const first = await ids(a, 'how do seedlings grow');
  expect(measuring.mock.calls.length).toBeGreaterThanOrEqual(30);
  const row = await a.s.repos.semanticGates.get(a.tenantId);
  expect(row).toMatchObject({ model: a.s.embedder.modelId, notes: 40 });
  expect(row!.gate.speak).toBeGreaterThan(0);
  await a.s.queue.stop();

  // Another process on the same database: its first search by meaning reads the kept gate.
  const b = await open(dbPath);
  const probes = vi.spyOn(b.s.vectors, 'bestSimilarity');
  expect(await ids(b, 'how do seedlings grow')).toEqual(first);
  expect(probes).not.toHaveBeenCalled();

  // Five more notes (40 → 45, past a tenth): measured again, and the row follows.
  await addNotes(b, 40, 45);
  await ids(b, 'when to water the garden');
  await vi.waitFor(() => expect(probes.mock.calls.length).toBeGreaterThanOrEqual(30));
  await vi.waitFor(async () => expect((await b.s.repos.semanticGates.get(b.tenantId))?.notes).toBe(45));
});
