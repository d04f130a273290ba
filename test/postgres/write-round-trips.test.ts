// Round trips of a node write on PostgreSQL through the services (the container as the server
// builds it), counted as the writes the pool's one client makes to the server's socket. The
// webhook outbox picks the subscribed webhooks in SQL, in a statement held for the
// transaction's next one: a tenant's webhooks cost no round trip of their own, whether it has
// none (nearly every tenant) or one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { sql } from '../../src/db/store/sql.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import { countSocketWrites, createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('round trips of a node write on PostgreSQL', () => {
  let pgdb: TestPgDatabase;
  let db: PgStore;
  let s: Container;
  let tenantId: string;
  let writes: { n: number };
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    db = new PgStore(pgdb.url, { poolSize: 1 });
    writes = countSocketWrites(db);
    const config = loadConfig({ RHIZOME_DATA_DIR: mkdtempSync(join(tmpdir(), 'rhizome-test-')), RHIZOME_LOG: 'silent' });
    s = wire(await buildContainer({ config, db, embedder: new HashEmbedder(), clock: new ManualClock(Date.now()), log: memoryLogger() }));
    await s.embedding.init();
    tenantId = (await s.tenants.create('alpha')).tenant_id;
    await s.nodes.create(tenantId, { title: 'warm-up' }); // prepared statements and the tenant's first write out of the count
  });
  afterEach(async () => {
    await s.queue.stop();
    await db.close();
    await pgdb.drop();
  });

  const counted = async (fn: () => Promise<unknown>) => {
    writes.n = 0;
    await fn();
    return writes.n;
  };
  const rows = async (table: 'webhook_deliveries' | 'jobs', where = sql`true`) =>
    Number(await db.value(sql`SELECT count(*) FROM ${sql.table(table)} WHERE ${where}`));

  it('a new node: BEGIN with the node and its keyword row, its embedding job and the outbox with the COMMIT — two round trips, was three', async () => {
    expect(await counted(() => s.nodes.create(tenantId, { title: 'Compost', content: 'Turn the heap weekly.' }))).toBe(2);
    expect(await rows('webhook_deliveries')).toBe(0);
  });

  it('with a webhook subscribed, the same two round trips write its delivery and the job that sends it', async () => {
    const hook = await s.webhooks.create(tenantId, { url: 'https://example.com/hook', events: ['node.created', 'node.deleted'] });
    const jobsBefore = await rows('jobs', sql`kind = 'webhook_deliver'`);
    expect(await counted(() => s.nodes.create(tenantId, { title: 'Tea', content: 'Steep for a day.' }))).toBe(2);
    expect(await rows('webhook_deliveries', sql`webhook_id = ${hook.id} AND event_type = 'node.created'`)).toBe(1);
    expect(await rows('jobs', sql`kind = 'webhook_deliver'`)).toBe(jobsBefore + 1);
  });

  it('an update and a delete: the outbox adds no round trip to either, with or without a webhook (7 and 6, were 8 and 7)', async () => {
    const writeTwice = async () => {
      const node = await s.nodes.create(tenantId, { title: 'Beans', content: 'Sow in April.' });
      return [await counted(() => s.nodes.update(tenantId, node.id, { title: 'Broad beans' })), await counted(() => s.nodes.remove(tenantId, node.id))];
    };
    expect(await writeTwice()).toEqual([7, 6]);
    await s.webhooks.create(tenantId, { url: 'https://example.com/hook', events: ['node.updated', 'node.deleted'] });
    expect(await writeTwice()).toEqual([7, 6]);
    expect(await rows('webhook_deliveries')).toBe(2);
  });
});
