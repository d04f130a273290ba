// Open-loop traffic (RHIZOME_LOAD_RATE): requests arrive at a fixed mean rate, as a Poisson
// stream whatever the server's pace, each of a kind drawn by the mix's shares, over at most
// `connections` kept-alive sockets. A request's latency runs from when it was due, not from when
// a socket took it, so waiting for a free socket counts (no coordinated omission). Below what the
// process serves, a percentile reads as service time plus the queueing that rate causes; the
// closed loop (traffic.ts) instead keeps every connection busy, and its latency is mostly its
// own queue (50 ÷ throughput). autocannon's own rate limit is not used: it sends each second's
// quota in a burst, and its correction records a slow response once per millisecond it took.
import { appendFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { quantile, requestMaker, type Kind, type KindResult, type LoadRequest, type TrafficOptions } from './traffic.js';

const TIMEOUT_MS = 10_000;

interface Tally {
  times: number[];
  errors: number;
  non_2xx: number;
  timeouts: number;
  codes: Record<string, number>;
}

/** How one exchange ended: a status once the whole body came, a timeout, or a failure (`idleClose`: on a kept-alive socket the server had just closed as idle). */
type Outcome = { status: number } | { timeout: true } | { error: string; idleClose: boolean };

/** One request on the agent's sockets. */
function exchange(agent: Agent, base: URL, r: LoadRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    let timedOut = false;
    const req = request({ agent, host: base.hostname, port: base.port, method: r.method, path: r.path, headers: r.headers, timeout: TIMEOUT_MS }, (res) => {
      let ended = false;
      res.resume();
      res.on('end', () => (ended = true));
      res.on('error', () => {}); // a body cut short: said on close
      res.on('close', () => resolve(timedOut ? { timeout: true } : ended ? { status: res.statusCode! } : { error: 'body cut short', idleClose: false }));
    });
    req.on('timeout', () => {
      timedOut = true;
      req.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(timedOut ? { timeout: true } : { error: e.code ?? e.message, idleClose: req.reusedSocket && e.code === 'ECONNRESET' }),
    );
    req.end(r.body);
  });
}

/** `trace`: a file each request is appended to as `[ms due from start, kind, latency ms, status]` (RHIZOME_LOAD_TRACE). */
export async function runOpenLoop(s: { url: string; keys: string[] }, o: TrafficOptions & { rate: number; trace?: string }): Promise<Record<Kind, KindResult>> {
  const kinds = (Object.keys(o.mix) as Kind[]).filter((k) => o.mix[k] > 0);
  const total = kinds.reduce((sum, k) => sum + o.mix[k], 0);
  const tallies = Object.fromEntries(kinds.map((k) => [k, { times: [], errors: 0, non_2xx: 0, timeouts: 0, codes: {} } as Tally])) as Record<Kind, Tally>;
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const next = requestMaker(s, o);
  const base = new URL(s.url);
  const drawKind = (): Kind => {
    let u = Math.random() * total;
    for (const k of kinds) if ((u -= o.mix[k]) < 0) return k;
    return kinds[kinds.length - 1];
  };
  const trace: string[] = [];
  const start = performance.now();
  const send = async (kind: Kind, due: number) => {
    const r = next(kind);
    let out = await exchange(agent, base, r);
    // A kept-alive socket the server closed as idle just as this went out: nothing was served,
    // so it is sent again once on a new socket, as browsers do (Node's `reusedSocket`).
    if ('idleClose' in out && out.idleClose) out = await exchange(agent, base, r);
    const t = tallies[kind];
    if ('timeout' in out) t.timeouts++;
    else if ('error' in out) {
      t.errors++;
      t.codes[out.error] = (t.codes[out.error] ?? 0) + 1;
    } else {
      const ms = performance.now() - due;
      t.times.push(ms);
      if (out.status < 200 || out.status >= 300) t.non_2xx++;
      if (o.trace) trace.push(JSON.stringify([Math.round(due - start), kind, Math.round(ms * 10) / 10, out.status]));
    }
  };

  const inFlight = new Set<Promise<void>>();
  const end = start + o.seconds * 1000;
  let due = start;
  while (true) {
    due += (-Math.log(1 - Math.random()) / o.rate) * 1000;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p = send(drawKind(), due);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  await Promise.all(inFlight);
  agent.destroy();
  if (o.trace) appendFileSync(o.trace, `${trace.join('\n')}\n`);

  return Object.fromEntries(
    kinds.map((k) => {
      const t = tallies[k];
      const sorted = t.times.sort((a, b) => a - b);
      const result: KindResult = {
        connections: o.connections,
        requests: sorted.length,
        rps: Math.round(sorted.length / o.seconds),
        p50_ms: quantile(sorted, 0.5),
        p90_ms: quantile(sorted, 0.9),
        p95_ms: quantile(sorted, 0.95),
        p99_ms: quantile(sorted, 0.99),
        max_ms: quantile(sorted, 1),
        errors: t.errors,
        non_2xx: t.non_2xx,
        timeouts: t.timeouts,
        ...(t.errors ? { error_codes: t.codes } : {}),
      };
      return [k, result];
    }),
  ) as Record<Kind, KindResult>;
}
