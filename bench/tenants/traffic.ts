// The many-tenants bench's traffic, for a fixed time through the proxy: `connections` loops
// over the hot tenants (a tenth of them by default) sending searches and reads, and one
// stream of cold tenants, each sending its first request since the servers started: a hybrid
// search, timed and kept (node ids and scores) to be compared with an exact search later.
// Nothing is written, so the exact search made after the run sees the same notes.
import type { SeededTenant } from './seed.js';

export type HotKind = 'hybrid' | 'keyword' | 'semantic' | 'get';
/** The hot tenants' mix, by share of requests. */
const HOT_MIX: Array<[HotKind, number]> = [
  ['hybrid', 0.4],
  ['keyword', 0.2],
  ['semantic', 0.2],
  ['get', 0.2],
];

export interface ColdSearch {
  tenant: SeededTenant;
  query: string;
  ms: number;
  status: number;
  ids: string[];
  scores: number[];
  /** The same tenant's second hybrid search (another query), right after: what the first one paid for being first. */
  secondMs: number;
  secondStatus: number;
  /** With a probe: the probe's time (its search came before the first hybrid one). */
  probeMs?: number;
}

export interface TrafficResult {
  hot: Record<HotKind, { requests: number; errors: number; times: number[] }>;
  cold: ColdSearch[];
  /** Requests that failed to connect or timed out, with the first few messages. */
  failures: string[];
  /** Error responses by status (0: no response), hot and cold together. */
  statuses: Record<string, number>;
}

export const PER_PAGE = 10;

export function searchPath(query: string, mode: 'hybrid' | 'keyword' | 'semantic'): string {
  return `/api/v1/nodes?mode=${mode}&per_page=${PER_PAGE}&query=${encodeURIComponent(query)}`;
}

export async function runTenantTraffic(o: { url: string; hot: SeededTenant[]; cold: SeededTenant[]; queries: string[]; connections: number; seconds: number; coldGapMs: number; probe?: 'keyword' | 'semantic' }): Promise<TrafficResult> {
  const hot = Object.fromEntries(HOT_MIX.map(([k]) => [k, { requests: 0, errors: 0, times: [] as number[] }])) as TrafficResult['hot'];
  const cold: ColdSearch[] = [];
  const failures: string[] = [];
  const statuses: Record<string, number> = {};
  const until = Date.now() + o.seconds * 1000;
  let q = 0;
  const query = () => o.queries[q++ % o.queries.length];
  const call = async (tenant: SeededTenant, path: string): Promise<{ status: number; ms: number; body: unknown }> => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${o.url}${path}`, { headers: { Authorization: `ApiKey ${tenant.key}` }, signal: AbortSignal.timeout(30_000) });
      const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.arrayBuffer();
      if (res.status !== 200) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      return { status: res.status, ms: performance.now() - t0, body };
    } catch (e) {
      if (failures.length < 10) failures.push(e instanceof Error ? e.message : String(e));
      statuses[0] = (statuses[0] ?? 0) + 1;
      return { status: 0, ms: performance.now() - t0, body: null };
    }
  };
  let r = 12345;
  const rand = () => ((r = (Math.imul(r, 1103515245) + 12345) >>> 0) / 4294967296);
  const pickKind = (): HotKind => {
    let u = rand();
    for (const [k, share] of HOT_MIX) if ((u -= share) < 0) return k;
    return 'hybrid';
  };
  const hotLoop = async () => {
    while (Date.now() < until) {
      const tenant = o.hot[Math.floor(rand() * o.hot.length)];
      const kind = pickKind();
      const path = kind === 'get' ? `/api/v1/nodes/${tenant.nodes[Math.floor(rand() * tenant.nodes.length)]}` : searchPath(query(), kind);
      const res = await call(tenant, path);
      const k = hot[kind];
      k.requests++;
      if (res.status !== 200) k.errors++;
      k.times.push(res.ms);
    }
  };
  const coldStream = async () => {
    for (const tenant of o.cold) {
      if (Date.now() >= until) return;
      const probe = o.probe ? await call(tenant, searchPath(query(), o.probe)) : null;
      const text = query();
      const res = await call(tenant, searchPath(text, 'hybrid'));
      const data = res.status === 200 ? (res.body as { data: Array<{ id: string; match_provenance?: { score: number } }> }).data : [];
      const second = await call(tenant, searchPath(query(), 'hybrid'));
      cold.push({ tenant, query: text, ms: res.ms, status: res.status, ids: data.map((d) => d.id), scores: data.map((d) => d.match_provenance?.score ?? NaN), secondMs: second.ms, secondStatus: second.status, ...(probe ? { probeMs: probe.ms } : {}) });
      if (o.coldGapMs > 0) await new Promise((done) => setTimeout(done, o.coldGapMs));
    }
  };
  await Promise.all([...Array.from({ length: o.connections }, hotLoop), coldStream()]);
  return { hot, cold, failures, statuses };
}

export function percentile(xs: number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 10) / 10;
}
