// Mixed traffic against one server: one autocannon instance per request kind, all running
// at once, so each kind gets its own latency histogram while they compete for the same
// process (connections split as in `MIX`, 50 in all by default). Each request carries one
// of the target's keys in turn (behind nginx the keys spread the traffic over the processes).
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

export type Kind = 'get' | 'list' | 'keyword' | 'semantic' | 'hybrid' | 'write';
/**
 * Shares of the connections per kind. `typical`: reads of notes dominate, a fifth of the
 * connections search, a fifth write (a person, the dashboard and an agent at once).
 * `search-heavy`: a third of the connections search by meaning (semantic or hybrid).
 */
export const MIXES: Record<string, Record<Kind, number>> = {
  typical: { get: 0.34, list: 0.12, keyword: 0.16, semantic: 0.08, hybrid: 0.1, write: 0.2 },
  'search-heavy': { get: 0.24, list: 0.1, keyword: 0.16, semantic: 0.16, hybrid: 0.18, write: 0.16 },
};
const MIX = MIXES.typical;

/** A named mix, or `get=0.4,semantic=0.1,...` (kinds left out get no connection). */
export function mixFrom(spec: string): Record<Kind, number> {
  if (MIXES[spec]) return MIXES[spec];
  const out = Object.fromEntries(Object.keys(MIX).map((k) => [k, 0])) as Record<Kind, number>;
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=');
    if (!(k in MIX) || !(Number(v) >= 0)) throw new Error(`RHIZOME_LOAD_MIX: bad entry ${part}`);
    out[k as Kind] = Number(v);
  }
  return out;
}

export interface KindResult {
  connections: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p90_ms: number;
  /** From every response's time (autocannon's histogram has no 95th percentile). */
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
  non_2xx: number;
  timeouts: number;
  /** Open loop only: what the failed requests failed with. */
  error_codes?: Record<string, number>;
}

export interface TrafficOptions {
  connections: number;
  mix: Record<Kind, number>;
  seconds: number;
  ids: string[];
  queries: string[];
}

/** One request of a kind, as both load generators send it: method, path, headers, body. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Builds each kind's next request: ids picked at random, queries and keys in turn, writes numbered. */
export function requestMaker(s: { keys: string[] }, o: Pick<TrafficOptions, 'ids' | 'queries'>): (kind: Kind) => LoadRequest {
  let q = 0;
  let w = 0;
  let k = 0;
  const nextQuery = () => encodeURIComponent(o.queries[q++ % o.queries.length]);
  const pick = () => o.ids[Math.floor(Math.random() * o.ids.length)];
  const headers = () => ({ Authorization: `ApiKey ${s.keys[k++ % s.keys.length]}`, 'Content-Type': 'application/json' });
  const path: Record<Exclude<Kind, 'write'>, () => string> = {
    get: () => `/api/v1/nodes/${pick()}`,
    list: () => `/api/v1/nodes?per_page=20&page=${1 + Math.floor(Math.random() * 20)}`,
    keyword: () => `/api/v1/nodes?mode=keyword&per_page=10&query=${nextQuery()}`,
    semantic: () => `/api/v1/nodes?mode=semantic&per_page=10&query=${nextQuery()}`,
    hybrid: () => `/api/v1/nodes?mode=hybrid&per_page=10&query=${nextQuery()}`,
  };
  return (kind) => {
    if (kind !== 'write') return { method: 'GET', path: path[kind](), headers: headers() };
    const n = w++;
    const body = JSON.stringify({ title: `Load note ${n}`, content: `Written under load, number ${n}: ${o.queries[n % o.queries.length]}.` });
    return { method: 'POST', path: '/api/v1/nodes', headers: headers(), body };
  };
}

export async function runTraffic(s: { url: string; keys: string[] }, o: TrafficOptions): Promise<Record<Kind, KindResult>> {
  const kinds = (Object.keys(o.mix) as Kind[]).filter((k) => o.mix[k] > 0);
  const split = splitConnections(o.connections, kinds, o.mix);
  const next = requestMaker(s, o);
  const runs = kinds.map((kind) => {
    const times: number[] = [];
    const first = next(kind);
    const run = autocannon({
      url: s.url,
      connections: split[kind],
      duration: o.seconds,
      timeout: 10,
      headers: first.headers,
      requests: [{ method: first.method, path: first.path, setupRequest: (req: object) => ({ ...req, ...next(kind) }) }],
    });
    // Without a callback autocannon returns its tracker, a promise that is also its event emitter.
    (run as unknown as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => void times.push(ms));
    return run.then((r) => [kind, summarise(r, split[kind], o.seconds, times)] as const);
  });
  return Object.fromEntries(await Promise.all(runs)) as Record<Kind, KindResult>;
}

function splitConnections(total: number, kinds: Kind[], mix: Record<Kind, number>): Record<Kind, number> {
  const sum = kinds.reduce((s, k) => s + mix[k], 0);
  const out = Object.fromEntries(kinds.map((k) => [k, Math.max(1, Math.floor((total * mix[k]) / sum))])) as Record<Kind, number>;
  let left = total - kinds.reduce((s, k) => s + out[k], 0);
  for (const k of kinds) if (left-- > 0) out[k]++;
  return out;
}

/** The `q` quantile of times sorted ascending, to 0.01 ms (0 when none). */
export function quantile(sorted: number[], q: number): number {
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] * 100) / 100 : 0;
}

function summarise(r: autocannon.Result, connections: number, seconds: number, times: number[]): KindResult {
  const sorted = times.sort((a, b) => a - b);
  return {
    connections,
    requests: r.requests.total,
    rps: Math.round(r.requests.total / seconds),
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p95_ms: quantile(sorted, 0.95),
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    errors: r.errors,
    non_2xx: r.non2xx,
    timeouts: r.timeouts,
  };
}
