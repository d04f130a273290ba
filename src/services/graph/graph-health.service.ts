// GET /graph-health: six counters read inside one transaction, so they describe one snapshot.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { GraphHealthRepo, TenantCounters } from '../../repos/graph-health.repo.js';

export const STALE_AFTER_MS = 90 * 24 * 60 * 60 * 1000;

export type GraphHealthRecord = TenantCounters & { stale_nodes: number };

export class GraphHealthService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: GraphHealthRepo,
    private readonly clock: Clock,
  ) {}

  get(tenantId: string): GraphHealthRecord {
    const before = iso(this.clock.now() - STALE_AFTER_MS);
    return this.tx.withTx(() => ({
      ...this.repo.counters(tenantId),
      stale_nodes: this.repo.staleCount(tenantId, before),
    }));
  }
}
