// Work a request only wakes is not the request's: a job the request enqueued runs in the
// queue's pump, scheduled from inside the request (timers and immediates inherit its async
// context). When that request's client goes away, the job's statements must not be
// cancelled with it (statement-scope.ts), nor any later job's run by the same pump.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { sql } from '../../src/db/store/sql.js';
import { withStatementScope } from '../../src/db/store/statement-scope.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { PgJobsRepo } from '../../src/repos/pg/jobs.pg.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

describePg('background work woken by a request whose client went away', () => {
  let pgdb: TestPgDatabase;
  let store: PgStore;
  let queue: JobQueue;
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    store = new PgStore(pgdb.url);
    queue = new JobQueue(new PgJobsRepo(store), new ManualClock(Date.now()), memoryLogger());
  });
  afterEach(async () => {
    await queue.stop();
    await store.close();
    await pgdb.drop();
  });

  it("runs to the end: the job's statements are not cancelled with the request", async () => {
    const outcomes: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    queue.register({
      kind: 'slow',
      maxAttempts: 1,
      async run() {
        started();
        try {
          await store.query('SELECT pg_sleep(0.8)');
          outcomes.push('done');
        } catch (e) {
          outcomes.push(`failed: ${(e as Error).message}`);
          throw e;
        }
      },
    });
    await queue.start();
    await queue.idle();
    // As the HTTP layer does for every request (app.ts): a scope with its client's signal.
    const client = new AbortController();
    await withStatementScope({ signal: client.signal, deadlineMs: 10_000 }, async () => {
      await queue.enqueue('ten_a', 'slow', {});
    });
    await running;
    await new Promise((r) => setTimeout(r, 200)); // the job's statement is running now
    client.abort(); // the request's client goes away
    await queue.idle();
    expect(outcomes).toEqual(['done']);
    expect(await store.all(sql`SELECT id FROM jobs`)).toEqual([]); // done, not queued again
  });
});
