// Builds the operator's side: operator keys, tenant administration and the metrics, over
// their own repositories (the container calls this once).
import { PgStore } from '../../db/store/pg-store.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/store/contract.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { createRepos } from '../../repos/index.js';
import { JobStatsRepo } from '../../repos/job-stats.repo.js';
import { OperatorKeysRepo } from '../../repos/operator-keys.repo.js';
import { TenantAdminRepo } from '../../repos/tenant-admin.repo.js';
import { TenantPurgeRepo } from '../../repos/tenant-purge.repo.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import type { AuthService } from '../auth/auth.service.js';
import type { TenantsService } from '../auth/tenants.service.js';
import { createMetrics } from './metrics.js';
import { OperatorKeysService } from './operator-keys.service.js';
import { TenantAdminService } from './tenant-admin.service.js';

export interface OperatorDeps {
  db: Database;
  tx: UnitOfWork;
  repos: ReturnType<typeof createRepos>;
  /** The server secret's sub-keys: operator keys are hashed, deletion tokens signed, with them. */
  keys: { apiKeyHmac: Buffer; tokenHmac: Buffer };
  /** The embedding jobs' kind (their queue is the embedding backlog). */
  embedKind: string;
  clock: Clock;
  auth: AuthService;
  tenants: TenantsService;
  vectors: VectorStore;
  keywordBytes: () => number | null;
}

export function buildOperators(d: OperatorDeps) {
  const db = d.db;
  const tenantRepo = new TenantAdminRepo(db);
  const jobStats = new JobStatsRepo(db);
  const operators = new OperatorKeysService(new OperatorKeysRepo(db), d.keys.apiKeyHmac, d.clock);
  const tenantAdmin = new TenantAdminService({
    tx: d.tx, repo: tenantRepo, purge: new TenantPurgeRepo(db), tenants: d.tenants, auth: d.auth,
    removeVector: async (t, seq) => await d.vectors.removeNode(t, seq),
    tokenKey: d.keys.tokenHmac, clock: d.clock,
  });
  const metrics = createMetrics({
    jobs: async () => await jobStats.counts(d.clock.now()),
    embedKind: d.embedKind,
    tenantsByStatus: async () => await tenantRepo.countByStatus(),
    vectorIndexes: () => [...d.vectors.heldBytes()].map(([t, bytes]) => {
      const st = d.vectors.indexStats(t);
      return { vectors: st.vectors + st.passages, bytes };
    }),
    indexBudget: () => d.vectors.budgetBytes,
    keywordBytes: d.keywordBytes,
    pool: () => (db instanceof PgStore ? db.poolStats() : null),
    now: () => d.clock.now(),
  });
  return { operators, tenantAdmin, metrics };
}
