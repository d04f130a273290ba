// Fetching a capture's URL safely: a total timeout, a byte cap enforced while streaming,
// a bounded number of redirects each re-checked, and every resolved address checked at
// connect time (so DNS rebinding cannot slip a private address past the guard).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { isPrivateAddress } from './net-guard.js';
import { parseHttpUrl } from '../schemas/url.js';

export interface FetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  allowPrivate?: boolean;
  /** Media types whose body is not worth downloading (audio/video): headers only. */
  headersOnly?: (contentType: string) => boolean;
  /** POST and a body (webhook deliveries); default GET. */
  method?: 'GET' | 'POST';
  body?: string;
  /** Extra request headers (conditional GET, signatures); they win over the defaults. */
  headers?: Record<string, string>;
  /** Answer 4xx/5xx as a result (with its status) instead of throwing (webhooks log the status). */
  acceptErrorStatus?: boolean;
}

export interface Fetched {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  /** Declared length when the body was skipped. */
  declaredBytes: number | null;
  bytes: Buffer;
  redirects: number;
  bodySkipped: boolean;
  /** The final response's headers (ETag, Last-Modified for conditional GET). */
  headers: Record<string, string | string[] | undefined>;
}

/** transient: worth retrying later (network trouble, 5xx, 429); otherwise permanent. */
export class FetchError extends Error {
  constructor(message: string, readonly transient: boolean) {
    super(message);
    this.name = 'FetchError';
  }
}

const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED']);
const DEFAULTS = { timeoutMs: 15_000, maxBytes: 25 * 1024 * 1024, maxRedirects: 5 };

/** A resolver with node:dns lookup's `all: true` shape (tests pass canned DNS answers). */
export type Resolver = (hostname: string, options: object, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** Resolves, then refuses the host if ANY of its addresses is private (no mixing public and private). */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = dnsLookup as unknown as Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad && !allowPrivate) {
        const e = Object.assign(new Error(`refusing to fetch ${hostname}: it resolves to a private address (${bad.address})`), { code: 'EPRIVATE' });
        return callback(e, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

export async function safeFetch(url: string, opts: FetchOptions = {}): Promise<Fetched> {
  const o = { ...DEFAULTS, ...opts };
  const deadline = Date.now() + o.timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetchOnce(current, o, deadline);
    if (res.redirect) {
      if (hop >= o.maxRedirects) throw new FetchError(`too many redirects (more than ${o.maxRedirects})`, false);
      const next = parseHttpUrl(new URL(res.redirect, current).toString());
      if (!next) throw new FetchError(`redirect to an unsupported URL: ${res.redirect}`, false);
      current = next.toString();
      continue;
    }
    return { ...res.fetched!, url, finalUrl: current, redirects: hop };
  }
}

type Hop = { redirect?: string; fetched?: Omit<Fetched, 'url' | 'finalUrl' | 'redirects'> };

function fetchOnce(target: string, o: typeof DEFAULTS & FetchOptions, deadline: number): Promise<Hop> {
  const u = parseHttpUrl(target);
  if (!u) return Promise.reject(new FetchError(`not an http(s) URL: ${target}`, false));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isPrivateAddress(host) && !o.allowPrivate) {
    return Promise.reject(new FetchError(`refusing to fetch ${u.host}: private or loopback address`, false));
  }
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new FetchError(`timed out after ${o.timeoutMs} ms`, true));
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    let settled = false;
    const fail = (e: FetchError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(e);
    };
    const timer = setTimeout(() => fail(new FetchError(`timed out after ${o.timeoutMs} ms`, true)), remaining);
    const req = mod.request(u, {
      method: o.method ?? 'GET',
      lookup: guardedLookup(o.allowPrivate ?? false),
      headers: {
        'user-agent': 'Rhizome/0.1 (+https://github.com/rhizome; personal knowledge capture)',
        accept: 'text/html,application/xhtml+xml,application/pdf,image/*,text/plain,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        ...(o.body !== undefined ? { 'content-length': String(Buffer.byteLength(o.body)) } : {}),
        ...o.headers,
      },
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPRIVATE') return fail(new FetchError(e.message, false));
      // Offline, or DNS down: the name may resolve later, so it is retried like any network error.
      if (e.code === 'ENOTFOUND') return fail(new FetchError(`host not found: ${u.hostname}`, true));
      fail(new FetchError(`could not fetch ${u.host}: ${e.message}`, TRANSIENT_CODES.has(e.code ?? '') || !e.code));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        settled = true;
        clearTimeout(timer);
        return resolve({ redirect: res.headers.location });
      }
      if (status >= 400 && !o.acceptErrorStatus) {
        res.resume();
        const transient = status >= 500 || status === 429 || status === 408;
        return fail(new FetchError(`the server answered HTTP ${status} for ${target}`, transient));
      }
      const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
      const declared = res.headers['content-length'] ? Number(res.headers['content-length']) : null;
      const base = { status, contentType, declaredBytes: declared, bodySkipped: false, headers: res.headers };
      if (o.headersOnly?.(contentType)) {
        res.destroy();
        settled = true;
        clearTimeout(timer);
        return resolve({ fetched: { ...base, bytes: Buffer.alloc(0), bodySkipped: true } });
      }
      if (declared !== null && declared > o.maxBytes) return fail(new FetchError(`the page is larger than ${o.maxBytes} bytes`, false));
      const enc = String(res.headers['content-encoding'] ?? '').toLowerCase();
      const stream =
        enc === 'gzip' || enc === 'x-gzip' ? res.pipe(zlib.createGunzip()) :
        enc === 'br' ? res.pipe(zlib.createBrotliDecompress()) :
        enc === 'deflate' ? res.pipe(zlib.createInflate()) : res;
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) return fail(new FetchError(`the page is larger than ${o.maxBytes} bytes`, false));
        chunks.push(c);
      });
      stream.on('error', (e) => fail(new FetchError(`reading the response failed: ${e.message}`, true)));
      stream.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ fetched: { ...base, bytes: Buffer.concat(chunks) } });
      });
    });
    req.end(o.body);
  });
}
