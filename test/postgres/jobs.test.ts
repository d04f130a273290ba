// The jobs table shared by several processes on PostgreSQL: PgJobsRepo answers the jobs
// scenario SQLite's JobsRepo answers, and claimers on separate connections never get the
// same job — whether their claims interleave with transactions left open (SKIP LOCKED passes
// over locked rows instead of waiting) or run truly at once; and two JobQueues, as two
// processes would run them, share the work with each job run once.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { connectPg } from '../../src/db/pg/connect.js';
import { PgStore } from '../../src/db/store/pg-store.js';
import { PG_CLAIM_SQL, PgJobsRepo } from '../../src/repos/pg/jobs.pg.js';
import { jobsScenario } from '../helpers/repo-scenarios.js';
import { createTestDatabase, describePg, type TestPgDatabase } from './helpers.js';

const NOW = 1_763_888_400_000;

describePg('PgJobsRepo: several processes claiming from one jobs table', () => {
  let pgdb: TestPgDatabase;
  let one: PgStore;
  let two: PgStore;
  beforeEach(async () => {
    pgdb = await createTestDatabase({ migrated: true });
    one = new PgStore(pgdb.url);
    two = new PgStore(pgdb.url, { statementTimeoutMs: 5_000 }); // a claim that waited on a lock would fail fast
  });
  afterEach(async () => {
    await one.close();
    await two.close();
    await pgdb.drop();
  });

  const fill = async (repo: PgJobsRepo, n: number) => {
    await one.withTx(async () => {
      for (let i = 0; i < n; i++) await repo.insert('ten_a', i % 3 === 0 ? 'capture' : 'embed', { i }, `job:${i}`, NOW, NOW);
    });
  };

  it('answers the jobs scenario as JobsRepo does on SQLite', async () => {
    await jobsScenario(one, (d) => new PgJobsRepo(d as PgStore));
  });

  it('two repositories on two connections, claims interleaved inside open transactions: every job claimed exactly once', async () => {
    const a = new PgJobsRepo(one, { owner: 'proc-a' });
    const b = new PgJobsRepo(two, { owner: 'proc-b' });
    await fill(a, 500);
    const claimedBy = new Map<number, string>();
    const take = (who: string, rows: { id: number; locked_by: string | null; status: string }[]) => {
      for (const r of rows) {
        expect(claimedBy.has(r.id), `job ${r.id} claimed twice`).toBe(false);
        expect([r.status, r.locked_by]).toEqual(['running', who]);
        claimedBy.set(r.id, who);
      }
      return rows.length;
    };
    const kinds = ['embed', 'capture'];
    let rounds = 0;
    for (;;) {
      rounds++;
      // A claims inside a transaction it keeps open while B claims: B must pass over A's
      // locked rows without waiting for them (a wait would hang this single thread).
      const [gotA, gotB] = await one.withTx(async () => {
        const got = take('proc-a', await a.claim(kinds, NOW, (k) => (k === 'embed' ? 7 : 3)));
        expect(one.inTransaction).toBe(true); // A's rows stay locked, uncommitted, while B claims
        return [got, take('proc-b', await b.claim(kinds, NOW, (k) => (k === 'embed' ? 5 : 2)))];
      });
      if (gotA + gotB === 0) break;
      expect(rounds).toBeLessThan(500);
    }
    expect(claimedBy.size).toBe(500);
    const byOwner = (await one.query<{ locked_by: string; n: number }>("SELECT locked_by, count(*)::int AS n FROM jobs WHERE status = 'running' GROUP BY locked_by ORDER BY locked_by")).rows;
    expect(byOwner.map((r) => r.locked_by)).toEqual(['proc-a', 'proc-b']);
    expect(byOwner.reduce((s, r) => s + r.n, 0)).toBe(500);
    for (const r of (await one.query<{ id: number; locked_by: string; attempts: number }>('SELECT id, locked_by, attempts FROM jobs')).rows) {
      expect([r.locked_by, r.attempts]).toEqual([claimedBy.get(r.id), 1]);
    }
    // Both processes' leases are live: neither's start-up takes the other's jobs; each takes back its own.
    expect(await b.requeueRunning(NOW + 1)).toBe([...claimedBy.values()].filter((w) => w === 'proc-b').length);
    expect(await a.requeueExpired(NOW + 1)).toBe(0);
    expect(await a.requeueExpired(NOW + a.leaseMs)).toBe([...claimedBy.values()].filter((w) => w === 'proc-a').length);
  });

  it('a requeue racing an identical job queued by another process gives way to it instead of failing', async () => {
    const a = new PgJobsRepo(one, { owner: 'proc-a' });
    await a.insert('ten_a', 'embed', { node: 'x' }, 'embed:x', NOW, NOW);
    const [running] = await a.claim(['embed'], NOW, () => 1);
    // Another process queues the same work in a transaction still open when A starts up.
    const other = await connectPg(pgdb.url);
    try {
      await other.query('BEGIN');
      await other.query(
        "INSERT INTO jobs (tenant_id, kind, payload, dedupe_key, run_after, created_at, updated_at) VALUES ('ten_a', 'embed', '{}', 'embed:x', $1, $1, $1) RETURNING id",
        [NOW],
      );
      const requeue = a.requeueRunning(NOW + 1); // its DELETE cannot see the copy; its UPDATE waits on it
      for (let i = 0; i < 100; i++) {
        const waiting = await two.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND state = 'active'");
        if (waiting.rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query('COMMIT');
      expect(await requeue).toBe(0);
    } finally {
      await other.end();
    }
    const rows = (await one.query<{ id: number; status: string }>("SELECT id, status FROM jobs WHERE dedupe_key = 'embed:x'")).rows;
    expect(rows.map((r) => r.status)).toEqual(['queued']);
    expect(Number(rows[0].id)).not.toBe(running.id);
  });

  it('four claimers at once on four connections: every job claimed exactly once', async () => {
    const repo = new PgJobsRepo(one);
    await fill(repo, 500);
    const clients = await Promise.all([0, 1, 2, 3].map(() => connectPg(pgdb.url)));
    try {
      const claimed: number[][] = clients.map(() => []);
      await Promise.all(
        clients.map(async (c, w) => {
          for (;;) {
            const r = await c.query(PG_CLAIM_SQL, [NOW, ['embed', 'capture'], [4, 2], `w${w}`, NOW + 30_000]);
            if (r.rows.length === 0) return;
            claimed[w].push(...r.rows.map((row: { id: number | string }) => Number(row.id)));
          }
        }),
      );
      const all = claimed.flat();
      expect(all).toHaveLength(500);
      expect(new Set(all).size).toBe(500);
      expect(claimed.filter((ids) => ids.length > 0).length).toBeGreaterThan(1); // they really shared the work
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('two job queues on two connections run 200 jobs between them, each exactly once', async () => {
    const a = new PgJobsRepo(one, { owner: 'proc-a' });
    const b = new PgJobsRepo(two, { owner: 'proc-b' });
    await fill(a, 200);
    const runs = new Map<number, string[]>();
    const queues = [a, b].map((repo) => new JobQueue(repo, systemClock, memoryLogger(), 2));
    queues.forEach((q, i) => {
      for (const kind of ['embed', 'capture']) {
        q.register({
          kind,
          batchSize: kind === 'embed' ? 4 : 1,
          run: async (jobs) => {
            for (const j of jobs) runs.set(j.id, [...(runs.get(j.id) ?? []), `q${i}`]);
            await new Promise((r) => setTimeout(r, 2)); // hold the jobs a moment: the other queue claims meanwhile
          },
        });
      }
    });
    await Promise.all(queues.map((q) => q.start()));
    await Promise.all(queues.map((q) => q.idle()));
    await Promise.all(queues.map((q) => q.stop()));
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((who) => who.length === 1)).toBe(true);
    const perQueue = [...runs.values()].flat().reduce((m, q) => m.set(q, (m.get(q) ?? 0) + 1), new Map<string, number>());
    expect(perQueue.size).toBe(2); // both did work
    expect((await one.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(0);
  });
});
