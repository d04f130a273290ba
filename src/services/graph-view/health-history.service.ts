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
  today(tenantId: string): HealthSnapshotRow {
    return this.tx.withTx(() => {
      const h = this.health.get(tenantId);
      return {
        day: iso(this.clock.now()).slice(0, 10),
        total_nodes: h.total_nodes,
        validated_nodes: h.validated_nodes,
        total_links: h.total_links,
        total_captures: h.total_captures,
        failed_captures: this.repo.failedCaptureCount(tenantId),
        stale_nodes: h.stale_nodes,
        orphan_nodes: this.repo.orphanCount(tenantId),
      };
    });
  }

  /** The last `days` days (today included), oldest first, today's row refreshed first. */
  history(tenantId: string, days: number): { days: HealthSnapshotRow[] } {
    const now = this.today(tenantId);
    try {
      this.tx.withTx(() => this.repo.upsert(tenantId, now));
    } catch (e) {
      this.log.warn(`graph-health snapshot not written; history is served without it: ${(e as Error).message}`);
    }
    const from = iso(this.clock.now() - (days - 1) * DAY_MS).slice(0, 10);
    const rows = this.repo.since(tenantId, from).filter((r) => r.day !== now.day);
    return { days: [...rows, now] };
  }

  inbox(tenantId: string, limit: number) {
    const before = iso(this.clock.now() - STALE_AFTER_MS);
    return this.tx.withTx(() => ({
      failed_captures: this.repo.failedCaptures(tenantId, limit),
      orphans: this.repo.orphans(tenantId, limit),
      stale: this.repo.stale(tenantId, before, limit),
      auto_filings: this.repo.autoFilings(tenantId, limit),
      counts: {
        failed_captures: this.repo.failedCaptureCount(tenantId),
        orphans: this.repo.orphanCount(tenantId),
        stale: this.repo.staleRawCount(tenantId, before),
        auto_filings: this.repo.autoFilingCount(tenantId),
      },
    }));
  }
}
