// Brakes on guessing and flooding (rate-limiter-flexible; counted in memory, or in
// PostgreSQL when several processes share it: limiters.ts).
// - Failed authentications count per client address and per API key id; past the limit a
//   failed attempt answers 429 rate_limited with Retry-After instead of 401. A valid key or
//   token is never counted nor slowed (on a local install every client shares 127.0.0.1).
// - Sign-in links are sent at most N times per email address and per client address in a
//   window; past that the request still answers 202 (it reveals nothing) but sends nothing.
// One warning is logged per burst (when a key first goes over its limit in a window).
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limiters } from '../repos/limiters.js';
import type { RateLimits } from '../config.js';
import { AppError, RateLimitedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isJsonMediaType } from './media-type.js';


/** The client's address: the socket's peer, or the last X-Forwarded-For hop when configured. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (c.req.header('X-Forwarded-For') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
    if (hops.length) return hops[hops.length - 1];
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests, app.request) have no socket
  }
}

/**
 * Sign-in throttles (0 turns one off; a test injects others through Config.limits): failed
 * authentications per client address and per API key id a minute, sign-in links sent per
 * email address and per client address in 15 minutes. Valid credentials are never counted.
 * See docs/reliability.md.
 */
export const AUTH_FAILURES_PER_ADDRESS = 30;
export const AUTH_FAILURES_PER_KEY = 10;
export const AUTH_WINDOW_S = 60;
export const MAGIC_LINKS_PER_EMAIL = 3;
export const MAGIC_LINKS_PER_ADDRESS = 10;
export const MAGIC_LINK_WINDOW_S = 900;

export class Throttle {
  private readonly failIp;
  private readonly failKey;
  private readonly linkEmail;
  private readonly linkIp;

  constructor(
    readonly limits: RateLimits,
    private readonly log: Logger,
    limiters: Limiters,
  ) {
    const limiter = (name: string, points: number, durationS: number) => (points > 0 ? limiters.create(name, points, durationS) : null);
    const authWindow = limits.authWindowS ?? AUTH_WINDOW_S;
    const linkWindow = limits.magicLinkWindowS ?? MAGIC_LINK_WINDOW_S;
    this.failIp = limiter('auth-ip', limits.authFailuresPerAddress ?? AUTH_FAILURES_PER_ADDRESS, authWindow);
    this.failKey = limiter('auth-key', limits.authFailuresPerKey ?? AUTH_FAILURES_PER_KEY, authWindow);
    this.linkEmail = limiter('link-email', limits.magicLinksPerEmail ?? MAGIC_LINKS_PER_EMAIL, linkWindow);
    this.linkIp = limiter('link-ip', limits.magicLinksPerAddress ?? MAGIC_LINKS_PER_ADDRESS, linkWindow);
  }

  /** Counts one failed authentication; returns the wait in seconds when over a limit, else 0. */
  async failedAuth(address: string, keyId: string | null): Promise<number> {
    const waits = await Promise.all([
      this.hit(this.failIp, `ip:${address}`, `failed authentications from ${address}`),
      keyId ? this.hit(this.failKey, `key:${keyId}`, `failed authentications for key ${keyId}`) : 0,
    ]);
    return Math.max(...waits);
  }

  /** True when a sign-in link may be sent to this email from this address. */
  async magicLinkAllowed(address: string, email: string): Promise<boolean> {
    const waits = await Promise.all([
      this.hit(this.linkIp, `ip:${address}`, `sign-in link requests from ${address}`),
      this.hit(this.linkEmail, `email:${email.toLowerCase()}`, 'sign-in link requests for one email address'),
    ]);
    return waits.every((w) => w === 0);
  }

  private async hit(l: RateLimiterAbstract | null, key: string, what: string): Promise<number> {
    if (!l) return 0;
    try {
      await l.consume(key);
      return 0;
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      // The first refusal of a window is the start of a burst: one warning, not one per request.
      if (res.consumedPoints === l.points + 1) this.log.warn(`throttling ${what}: more than ${l.points} in ${l.duration} s`);
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    }
  }
}

/** The key id of an `ApiKey {id}.{secret}` credential (what a guesser targets), else null. */
export function keyIdOf(header: string | undefined): string | null {
  const m = /^\s*apikey\s+([^.\s]{1,64})\./i.exec(header ?? '');
  return m ? m[1] : null;
}

const perServices = new WeakMap<object, Throttle>();
/** One throttle per running server (per Services), created on first use. */
export function throttleFor(s: { config: { limits: RateLimits }; log: Logger; limiters: Limiters }): Throttle {
  let t = perServices.get(s);
  if (!t) perServices.set(s, (t = new Throttle(s.config.limits, s.log, s.limiters)));
  return t;
}

/** Counts a failed authentication and turns it into a 429 once over a limit. */
export async function throttled<T>(c: Context, s: Parameters<typeof throttleFor>[0], attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof AppError) || e.status !== 401) throw e;
    const t = throttleFor(s);
    const wait = await t.failedAuth(clientAddress(c, t.limits.trustProxy), keyIdOf(c.req.header('Authorization')));
    throw wait > 0 ? new RateLimitedError(`Too many failed attempts; retry in ${wait} s`, wait) : e;
  }
}

/** POST /auth/magic-link past its limits: still 202, nothing sent. */
export function magicLinkLimit(s: Parameters<typeof throttleFor>[0]) {
  return async (c: Context, next: () => Promise<void>) => {
    // Another body type is the route's 415 to answer, and must not spend the address's quota.
    if (c.req.method !== 'POST' || !isJsonMediaType(c.req.header('Content-Type'))) return next();
    let email: unknown;
    try {
      email = ((await c.req.json()) as { email?: unknown })?.email;
    } catch {
      return next(); // the route's validator answers the malformed body
    }
    if (typeof email !== 'string' || !email.includes('@') || email.length > 320) return next();
    const t = throttleFor(s);
    if (await t.magicLinkAllowed(clientAddress(c, t.limits.trustProxy), email)) return next();
    return c.body(null, 202);
  };
}
