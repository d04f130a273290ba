// Graph health over time. A snapshot per tenant and UTC day is written by the first read of
// the history that day and refreshed by later reads (one upsert of eight integers), so no
// scheduler is needed and a day nobody looked at costs nothing; the charts draw the days
// that exist. A full disk must not break the read: the snapshot is then skipped.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Logger } from '../../logger.js';
import type { GraphHealthService } from '../graph/graph-health.service.js';
import { STALE_AFTER_MS } from '../graph/graph-health.service.js';
import type { HealthHistoryRepo, HealthSnapshotRow } from '../../repos/health-history.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export class HealthHistoryService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: HealthHistoryRepo,
    private readonly health: GraphHealthService,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Today's counters, as a snapshot row. */
  async today(tenantId: string): Promise<HealthSnapshotRow> {
    return await this.tx.withTx(async () => {
      const h = await this.health.get(tenantId);
      return {
        day: iso(this.clock.now()).slice(0, 10),
        total_nodes: h.total_nodes,
        validated_nodes: h.validated_nodes,
        total_links: h.total_links,
        total_captures: h.total_captures,
        failed_captures: await this.repo.failedCaptureCount(tenantId),
        stale_nodes: h.stale_nodes,
        orphan_nodes: await this.repo.orphanCount(tenantId),
      };
    });
  }

  /** The last `days` days (today included), oldest first, today's row refreshed first. */
  async history(tenantId: string, days: number): Promise<{ days: HealthSnapshotRow[] }> {
    const now = await this.today(tenantId);
    try {
      await this.tx.withTx(async () => await this.repo.upsert(tenantId, now));
    } catch (e) {
      this.log.warn(`graph-health snapshot not written; history is served without it: ${(e as Error).message}`);
    }
    const from = iso(this.clock.now() - (days - 1) * DAY_MS).slice(0, 10);
    const rows = (await this.repo.since(tenantId, from)).filter((r) => r.day !== now.day);
    return { days: [...rows, now] };
  }

  async inbox(tenantId: string, limit: number) {
    const before = iso(this.clock.now() - STALE_AFTER_MS);
    return await this.tx.withTx(async () => ({
      failed_captures: await this.repo.failedCaptures(tenantId, limit),
      orphans: await this.repo.orphans(tenantId, limit),
      stale: await this.repo.stale(tenantId, before, limit),
      auto_filings: await this.repo.autoFilings(tenantId, limit),
      counts: {
        failed_captures: await this.repo.failedCaptureCount(tenantId),
        orphans: await this.repo.orphanCount(tenantId),
        stale: await this.repo.staleRawCount(tenantId, before),
        auto_filings: await this.repo.autoFilingCount(tenantId),
      },
    }));
  }
}
