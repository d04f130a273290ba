// fetch() for /api/v1 with the session's credentials. Errors become ApiError carrying the
// server's problem+json (title, detail, field errors, Retry-After) so every page can show
// exactly what the API said, including "this endpoint does not exist yet".
import { loadSession, needsRefresh, refreshSession, saveSession, type Session } from './session.js';

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly retryAfter: number | null = null,
  ) {
    super(detail || title);
  }
}

function authHeader(s: Session | null): Record<string, string> {
  if (!s) return {};
  return { Authorization: s.kind === 'apikey' ? `ApiKey ${s.key}` : `Bearer ${s.access}` };
}

async function toApiError(res: Response): Promise<ApiError> {
  const retry = res.headers.get('Retry-After');
  const retryAfter = retry && /^\d+$/.test(retry) ? Number(retry) : null;
  let p: Record<string, unknown> = {};
  try {
    p = await res.json();
  } catch {
    /* not JSON: fall back to the status line */
  }
  const str = (v: unknown, d: string) => (typeof v === 'string' && v ? v : d);
  return new ApiError(
    res.status,
    str(p.code, 'http_' + res.status),
    str(p.title, res.statusText || `HTTP ${res.status}`),
    str(p.detail, ''),
    Array.isArray(p.errors) ? (p.errors as FieldError[]) : [],
    retryAfter,
  );
}

export interface RequestOptions {
  /** Skip credentials (login routes). */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Hand back the Response itself (downloads, streams). */
  raw?: boolean;
  /** The Accept header (text/event-stream for a streamed answer). */
  accept?: string;
}

export async function request<T = unknown>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const send = async (s: Session | null) => {
    const headers: Record<string, string> = opts.anonymous ? {} : authHeader(s);
    if (opts.accept) headers.Accept = opts.accept;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof Blob) payload = body; // a Blob (an OPML file) sends its own type
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    try {
      return await fetch('/api/v1' + path, { method, headers, body: payload, signal: opts.signal });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      throw new ApiError(0, 'network_error', 'Cannot reach the server', 'Check that Rhizome is running, then try again.');
    }
  };

  let session = opts.anonymous ? null : loadSession();
  if (session && needsRefresh(session)) session = await refreshSession();
  let res = await send(session);
  if (res.status === 401 && !opts.anonymous && session) {
    if (session.kind === 'bearer') {
      const next = await refreshSession(session.access);
      if (next) res = await send(next);
    }
    if (res.status === 401) {
      const err = await toApiError(res);
      saveSession(null, session.kind === 'apikey' ? `This API key no longer works (${err.detail || err.title}).` : 'Your session has ended. Please sign in again.');
      throw err;
    }
  }
  if (!res.ok) throw await toApiError(res);
  if (opts.raw) return res as T;
  if (res.status === 204 || (res.status === 202 && !res.headers.get('Content-Type')?.includes('json'))) return undefined as T;
  const type = res.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  del: <T>(path: string) => request<T>('DELETE', path),
};

/** Builds a query string from the defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? '?' + s : '';
}
