// The Prometheus metrics of one process (prom-client), on a registry of its own so that
// several apps in one process (tests) never collide. Gauges are read when scraped, from
// the sources the container hands in; nothing is sampled in the background. Names and
// labels are documented in docs/metrics.md and used by docs/grafana-rhizome.json.
import { randomBytes } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobStatsRow } from '../../repos/job-stats.repo.js';

export interface MetricSources {
  jobs: () => Promise<JobStatsRow[]> | JobStatsRow[];
  /** The job kind whose queue is the embedding backlog. */
  embedKind: string;
  tenantsByStatus: () => Promise<Array<{ status: string; n: number }>> | Array<{ status: string; n: number }>;
  /** Each held tenant's in-memory vector indexes (its notes' and passages'): vectors and bytes. */
  vectorIndexes: () => Promise<Array<{ vectors: number; bytes: number }>> | Array<{ vectors: number; bytes: number }>;
  /** The indexes' memory budget in bytes (undefined: none). */
  indexBudget?: () => number | null;
  /** Bytes of keyword postings kept in memory (SQLite's kept impacts); null where the engine keeps none. */
  keywordBytes: () => number | null;
  /** The PostgreSQL pool's connections (null on SQLite: one connection, no pool). */
  pool: () => { total: number; idle: number; waiting: number; size: number } | null;
  now: () => number;
}

/** Latency buckets (seconds): from a cached read to a large import. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(src: MetricSources) {
  const registry = new Registry();
  /** Opaque id of this process: the X-Rhizome-Instance header and rhizome_instance_info carry it. */
  const instanceId = randomBytes(4).toString('hex');

  new Gauge({ name: 'rhizome_instance_info', help: 'This process (its instance id is the X-Rhizome-Instance response header)', labelNames: ['instance_id'], registers: [registry] })
    .set({ instance_id: instanceId }, 1);

  const httpDuration = new Histogram({
    name: 'rhizome_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern (not the raw path), method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'rhizome_jobs',
    help: 'Durable jobs by kind and state (queued: due now; scheduled: due later; paused: its tenant is suspended; running)',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await src.jobs()) this.set({ kind: r.kind, state: r.state }, r.n);
    },
  });
  new Gauge({
    name: 'rhizome_jobs_oldest_queued_age_seconds',
    help: 'How long the oldest job that is due has waited since it became due, by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      const now = src.now();
      for (const r of await src.jobs()) if (r.state === 'queued' && r.oldest_due !== null) this.set({ kind: r.kind }, Math.max(0, (now - r.oldest_due) / 1000));
    },
  });
  new Gauge({
    name: 'rhizome_embedding_queue_length',
    help: 'Nodes waiting to be embedded (queued, scheduled and running embedding jobs)',
    registers: [registry],
    async collect() {
      this.set((await src.jobs()).filter((r) => r.kind === src.embedKind).reduce((n, r) => n + r.n, 0));
    },
  });
  new Gauge({
    name: 'rhizome_db_pool_connections',
    help: "This process's PostgreSQL connections by state (open: in the pool now; idle: not in use; waiting: requests queued for one; size: the pool's cap)",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      const p = src.pool();
      if (!p) return;
      this.set({ state: 'open' }, p.total);
      this.set({ state: 'idle' }, p.idle);
      this.set({ state: 'waiting' }, p.waiting);
      this.set({ state: 'size' }, p.size);
    },
  });
  new Gauge({
    name: 'rhizome_tenants',
    help: 'Tenants of the install by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const status of ['active', 'suspended']) this.set({ status }, 0);
      for (const r of await src.tenantsByStatus()) this.set({ status: r.status }, r.n);
    },
  });
  new Gauge({
    name: 'rhizome_tenants_loaded',
    help: 'Tenants whose vector index is held in this process\'s memory (at least one vector loaded)',
    registers: [registry],
    async collect() {
      this.set((await src.vectorIndexes()).filter((x) => x.vectors > 0).length);
    },
  });
  new Gauge({
    name: 'rhizome_vector_index_bytes',
    help: 'Memory held by the in-memory vector indexes of this process (vectors × bytes per vector)',
    registers: [registry],
    async collect() {
      this.set((await src.vectorIndexes()).reduce((n, x) => n + x.bytes, 0));
    },
  });
  new Gauge({
    name: 'rhizome_vector_index_vectors',
    help: 'Vectors held by the in-memory vector indexes of this process',
    registers: [registry],
    async collect() {
      this.set((await src.vectorIndexes()).reduce((n, x) => n + x.vectors, 0));
    },
  });
  new Gauge({
    name: 'rhizome_keyword_memory_bytes',
    help: 'Keyword postings kept in memory by this process (SQLite; 0 on PostgreSQL, which scores in SQL)',
    registers: [registry],
    collect() {
      this.set(src.keywordBytes() ?? 0);
    },
  });
  const indexLoads = new Counter({
    name: 'rhizome_index_loads_total',
    help: 'Tenant indexes loaded into memory on first use (or again after an eviction)',
    labelNames: ['index'],
    registers: [registry],
  });
  new Gauge({
    name: 'rhizome_index_budget_bytes',
    help: 'The memory budget of the in-memory vector indexes (RHIZOME_INDEX_MEMORY_MB)',
    registers: [registry],
    collect() {
      this.set(src.indexBudget?.() ?? 0);
    },
  });
  const evictions = new Counter({
    name: 'rhizome_index_evictions_total',
    help: 'Tenant indexes evicted from memory to stay within the memory budget',
    labelNames: ['index'],
    registers: [registry],
  });

  let defaults = false;
  return {
    registry,
    instanceId,
    httpDuration,
    evictions,
    indexLoads,
    contentType: registry.contentType,
    /** The exposition text. Process metrics (RSS, heap, event-loop lag) are registered on the first scrape. */
    async render(): Promise<string> {
      if (!defaults) {
        collectDefaultMetrics({ register: registry });
        defaults = true;
      }
      return registry.metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
