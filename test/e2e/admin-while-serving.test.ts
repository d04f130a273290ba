// Admin commands share the data folder with a running server: `rhizome tenants create`, run
// again and again while the server writes nodes and embeds them, must wait for the lock when
// it needs it and never make the server's own work fail with "database is locked".
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, startChildServer, type ChildServer } from '../clients/server.js';

let srv: ChildServer;
beforeAll(async () => {
  srv = await startChildServer();
}, 120_000);
afterAll(async () => {
  await srv?.stop();
});

it('creates tenants while the server writes, and no write or job of the server fails', async () => {
  const headers = { Authorization: `ApiKey ${srv.apiKey}`, 'Content-Type': 'application/json' };
  let writing = true;
  let written = 0;
  const statuses: number[] = [];
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const nodes = Array.from({ length: 20 }, (_, k) => ({ title: `Note ${i}-${k}`, content: `Body of note ${i}-${k} about sourdough, compost and index funds.` }));
      const res = await fetch(`${srv.url}/api/v1/nodes/batch`, { method: 'POST', headers, body: JSON.stringify({ nodes }) });
      statuses.push(res.status);
      if (res.ok) written += ((await res.json()) as { created: number }).created;
    }
  })();
  const created: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await runCli(['tenants', 'create', `team-${i}`, '--json'], srv.env());
    expect(r.code, r.stderr).toBe(0);
    created.push(JSON.parse(r.stdout).tenant_id);
  }
  writing = false;
  await writer;
  expect(new Set(statuses)).toEqual(new Set([200]));
  expect(written).toBeGreaterThan(0);
  expect(new Set(created).size).toBe(6);

  // Every node gets its vector: wait for the queue to drain.
  for (let waited = 0; ; waited += 500) {
    const h = (await (await fetch(`${srv.url}/health`, { headers })).json()) as { queue_depth?: number; jobs?: { queued: number } };
    const depth = h.queue_depth ?? h.jobs?.queued ?? 0;
    if (depth === 0) break;
    if (waited > 120_000) throw new Error(`queue did not drain: ${JSON.stringify(h)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const db = new Database(join(srv.dataDir, 'rhizome.db'), { readonly: true, fileMustExist: true });
  try {
    const failed = db.prepare("SELECT count(*) FROM jobs WHERE last_error LIKE '%locked%' OR status = 'failed'").pluck().get();
    expect(failed).toBe(0);
  } finally {
    db.close();
  }
  expect(srv.log()).not.toMatch(/database is locked/);
}, 240_000);
