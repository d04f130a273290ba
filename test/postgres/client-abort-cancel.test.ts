// A request whose client went away has its statement cancelled in the database: while
// another session holds an ACCESS EXCLUSIVE lock on `nodes`, a search over a real socket
// waits on it; the client closes its connection; the waiting statement leaves
// pg_stat_activity within a second while the lock still holds (pg_cancel_backend,
// statement-scope.ts), and the server goes on serving. Without the cancellation the statement
// would wait for the lock for nobody (the test fails: it never leaves).
import { getRequestListener } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createApp } from '../../src/http/app.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';
import type { PgClient } from '../../src/db/pg/connect.js';
import { createTestDatabase, describePg, until, type TestPgDatabase } from './helpers.js';

describePg('a request whose client went away', () => {
  let pgdb: TestPgDatabase;
  let store: PgStore;
  let s: Container;
  let server: Server;
  let url: string;
  let a: { tenant_id: string; api_key: string };
  let watcher: PgClient;

  beforeAll(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    store = new PgStore(pgdb.url);
    s = wire(await buildContainer({ config: loadConfig({ RHIZOME_DATA_DIR: '/tmp/rz-client-abort', RHIZOME_LOG: 'silent' }), db: store, embedder: new HashEmbedder(), clock: new ManualClock(Date.now()), log: memoryLogger() }));
    const app = createApp(s);
    // The HTTP adapter `rhizome serve` uses (src/server.ts), on a real socket.
    server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    a = await s.tenants.create('alpha');
    await s.nodes.create(a.tenant_id, { title: 'Compost heap', content: 'Turn the compost every week.' });
    expect((await get('/api/v1/nodes?query=compost')).status).toBe(200);
    watcher = await pgdb.client();
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await s?.queue.stop();
    await s?.limiters.close();
    await store?.close();
    await pgdb?.drop();
  });

  const get = async (path: string, signal?: AbortSignal) => await fetch(`${url}${path}`, { headers: { Authorization: `ApiKey ${a.api_key}` }, signal });
  /** The statements of this database, other than ours, waiting on a lock. */
  const waitingOnLock = async () =>
    (
      await watcher.query<{ pid: number; query: string }>(
        `SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND state = 'active'`,
      )
    ).rows;

  it('is cancelled in the database long before the lock goes, and the server still serves', async () => {
    const locker = await pgdb.client();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE nodes IN ACCESS EXCLUSIVE MODE');
    try {
      const client = new AbortController();
      const asked = get('/api/v1/nodes?query=compost', client.signal).then(
        (r) => r.status,
        (e: Error) => e.name,
      );
      // The search's statement is now waiting on the lock in the server.
      const waiting = await until('the search to wait on the lock', async () => ((await waitingOnLock()).length ? await waitingOnLock() : undefined), 3_000);
      expect(waiting).toHaveLength(1);
      expect(waiting[0].query).toMatch(/nodes/);
      client.abort(); // fetch closes the socket
      expect(await asked).toBe('AbortError');
      const abortedAt = performance.now();
      // Gone from pg_stat_activity: cancelled, not left to wait out the lock for nobody.
      await until('the waiting statement to be cancelled', async () => ((await waitingOnLock()).length === 0 ? true : undefined), 2_000);
      const goneAfter = performance.now() - abortedAt;
      expect(goneAfter, `the statement went ${Math.round(goneAfter)} ms after the client`).toBeLessThan(1_000);
      // The backend that ran it is alive and idle again (cancelled, not terminated).
      const backend = await watcher.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [waiting[0].pid]);
      expect(backend.rows[0]?.state).toBe('idle');
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
    }
    // The server still serves, the same search included.
    const after = await get('/api/v1/nodes?query=compost');
    expect(after.status).toBe(200);
    expect((await after.json()).data).toHaveLength(1);
    expect((await get('/health')).status).toBe(200);
  }, 30_000);
});
