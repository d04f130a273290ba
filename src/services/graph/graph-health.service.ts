// GET /graph-health: six counters read by one statement, so they describe one snapshot.
import { iso, type Clock } from '../../clock.js';
import type { GraphHealthRepo, TenantCounters } from '../../repos/graph-health.repo.js';

export const STALE_AFTER_MS = 90 * 24 * 60 * 60 * 1000;

export type GraphHealthRecord = TenantCounters & { stale_nodes: number };

export class GraphHealthService {
  constructor(
    private readonly repo: GraphHealthRepo,
    private readonly clock: Clock,
  ) {}

  async get(tenantId: string): Promise<GraphHealthRecord> {
    // One statement: one snapshot without a transaction (two round trips fewer on PostgreSQL).
    return await this.repo.withStale(tenantId, iso(this.clock.now() - STALE_AFTER_MS));
  }
}
