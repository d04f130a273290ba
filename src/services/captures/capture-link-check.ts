// Is the original still there? Each captured URL is asked for its headers (through the
// same guarded fetcher); a 404 or 410, or a domain that no longer resolves, marks the
// capture "original gone — your copy is here" (metadata.source_status = 'gone'). A page
// that answers again is marked back. Timeouts and server errors prove nothing and change
// nothing. Weekly for every tenant, and on demand (`rhizome captures check-links`).
import { iso, type Clock } from '../../clock.js';
import { FetchError, type safeFetch } from '../../ingest/fetch.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { CaptureSnapshotsRepo } from '../../repos/capture-snapshots.repo.js';
import type { CapturesRepo } from '../../repos/captures.repo.js';

export const LINK_CHECK_JOB = 'captures.check-links';
export const LINK_CHECK_EVERY_MS = 7 * 24 * 3600 * 1000;
const CONCURRENCY = 4;
const TIMEOUT_MS = 10_000;

export interface LinkCheckResult {
  checked: number;
  gone: Array<{ capture_id: string; url: string; reason: string }>;
  /** Captures that could not be judged this time (timeouts, server errors). */
  unknown: number;
}

export interface LinkCheckDeps {
  repo: CapturesRepo;
  snapshots: CaptureSnapshotsRepo;
  queue: Pick<JobQueue, 'enqueue'>;
  clock: Clock;
  allowPrivateFetch: boolean;
  fetch?: typeof safeFetch;
}

export class LinkChecker {
  constructor(private readonly d: LinkCheckDeps) {}

  async check(tenantId: string): Promise<LinkCheckResult> {
    const captures = await this.d.snapshots.linkedCaptures(tenantId);
    const out: LinkCheckResult = { checked: 0, gone: [], unknown: 0 };
    const fetch = this.d.fetch ?? (await import('../../ingest/fetch.js')).safeFetch;
    let next = 0;
    const worker = async () => {
      while (next < captures.length) {
        const c = captures[next++];
        const verdict = await probe(fetch, c.url, this.d.allowPrivateFetch);
        out.checked++;
        if (verdict === 'unknown') {
          out.unknown++;
          continue;
        }
        const at = iso(this.d.clock.now());
        const meta = JSON.parse(c.metadata) as Record<string, unknown>;
        const wasGone = meta.source_status === 'gone';
        meta.source_checked_at = at;
        if (verdict === 'ok') {
          meta.source_status = 'ok';
          delete meta.source_gone_reason;
          delete meta.source_gone_at;
        } else {
          meta.source_status = 'gone';
          meta.source_gone_reason = verdict.gone;
          if (!wasGone) meta.source_gone_at = at;
          out.gone.push({ capture_id: c.id, url: c.url, reason: verdict.gone });
        }
        await this.d.repo.setMetadata(tenantId, c.id, JSON.stringify(meta), at);
        if (verdict !== 'ok' && !wasGone) await this.d.repo.addEvent(tenantId, c.id, 'source_gone', at, { reason: verdict.gone });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return out;
  }

  /**
   * Queues a check for each tenant whose links were last checked a week ago or more (or
   * never), and that has captured pages. Called now and then by the server (wiring.ts); the
   * last check is read from the captures' own stamps, so a restart does not reset the week.
   */
  async scheduleDue(tenantIds: string[]): Promise<number> {
    const now = this.d.clock.now();
    let queued = 0;
    for (const t of tenantIds) {
      const last = await this.d.snapshots.lastLinkCheck(t);
      if (last && now - Date.parse(last) < LINK_CHECK_EVERY_MS) continue;
      if (!await this.d.snapshots.hasLinkedCaptures(t)) continue;
      if (await this.d.queue.enqueue(t, LINK_CHECK_JOB, {}, { dedupeKey: `check-links:${t}` })) queued++;
    }
    return queued;
  }

  jobHandler(): JobHandler {
    return {
      kind: LINK_CHECK_JOB,
      maxAttempts: 2,
      run: async (jobs: Job[]) => {
        for (const j of jobs) await this.check(j.tenantId);
      },
    };
  }
}

async function probe(fetch: typeof safeFetch, url: string, allowPrivate: boolean): Promise<'ok' | 'unknown' | { gone: string }> {
  try {
    await fetch(url, { allowPrivate, timeoutMs: TIMEOUT_MS, headersOnly: () => true });
    return 'ok';
  } catch (e) {
    if (!(e instanceof FetchError)) return 'unknown';
    const status = e.message.match(/answered HTTP (\d{3})/)?.[1];
    if (status === '404' || status === '410') return { gone: `HTTP ${status}` };
    if (e.message.startsWith('host not found')) return { gone: 'the domain no longer resolves' };
    return 'unknown';
  }
}
