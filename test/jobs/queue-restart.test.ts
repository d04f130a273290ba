// A job that was running when the process died (or that fails now) goes back to the queue,
// unless the same work was queued again meanwhile: the unique dedupe index allows one
// queued copy, and before this a restart crashed on "UNIQUE constraint failed".
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { memoryLogger } from '../../src/logger.js';
import { JobsRepo } from '../../src/repos/jobs.repo.js';

function setup() {
  const db = new SqliteStore(openDatabase(':memory:'));
  const repo = new JobsRepo(db);
  const clock = new ManualClock();
  const count = async (status: string) => await db.prepare('SELECT count(*) FROM jobs WHERE status = ?').pluck().get(status) as number;
  return { db, repo, clock, count };
}

describe('job recovery with deduplicated jobs', () => {
  it('a restart requeues interrupted jobs, dropping those already queued again', async () => {
    const { repo, clock, count } = setup();
    await repo.insert('t', 'embed_node', { node_id: 'a' }, 'embed:a', 0, 0);
    await repo.insert('t', 'embed_node', { node_id: 'b' }, 'embed:b', 0, 0);
    expect(await repo.claim(['embed_node'], clock.now(), () => 10)).toHaveLength(2); // both running
    expect(await repo.insert('t', 'embed_node', { node_id: 'a' }, 'embed:a', 0, 0)).toBe(true); // 'a' changed again
    expect(await repo.requeueRunning(clock.now())).toBe(1);
    expect(await count('queued')).toBe(2);
    expect(await count('running')).toBe(0);
  });

  it('a failed attempt whose work is queued again leaves just the queued copy', async () => {
    const { repo, clock, count } = setup();
    const log = memoryLogger();
    const queue = new JobQueue(repo, clock, log, 1);
    let runs = 0;
    queue.register({
      kind: 'k',
      run: async () => {
        runs++;
        if (runs === 1) {
          await queue.enqueue('t', 'k', {}, { dedupeKey: 'same' }); // the same work asked for again
          throw new Error('first attempt fails');
        }
      },
    });
    await queue.enqueue('t', 'k', {}, { dedupeKey: 'same' });
    await queue.start();
    await queue.idle();
    await queue.stop();
    expect(log.lines.join('')).not.toContain('recording the failure failed');
    expect(runs).toBe(2);
    expect(await count('queued') + await count('running')).toBe(0);
  });
});
