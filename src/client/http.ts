// One HTTP round trip to the Rhizome API: the Authorization header, one retry after a
// 401 when the credential can refresh, problem+json turned into RhizomeApiError.
import type { AuthProvider, FetchLike } from './auth.js';
import { RhizomeApiError, RhizomeConnectionError } from './errors.js';

type QueryValue = string | number | boolean | undefined | null;
/** Array values repeat the parameter (`tag=a&tag=b`). */
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  query?: Query;
  json?: unknown;
  form?: FormData;
  /** A body that is neither JSON nor a form (an OPML document). */
  text?: { body: string; contentType: string };
  /** Skip the Authorization header (the login routes). */
  anonymous?: boolean;
  /** Return the raw Response (non-JSON content, or a status the caller interprets). */
  raw?: boolean;
  /** Statuses that are answers, not errors (GET /captures/check answers 404). */
  accept?: number[];
}

export class HttpCore {
  constructor(
    readonly apiUrl: string,
    private readonly auth: AuthProvider,
    private readonly fetchImpl: FetchLike,
  ) {}

  url(path: string, query?: Query): string {
    const base = this.apiUrl.replace(/\/+$/, '');
    const qs = new URLSearchParams();
    for (const [k, vs] of Object.entries(query ?? {}))
      for (const v of Array.isArray(vs) ? vs : [vs]) if (v !== undefined && v !== null && v !== '') qs.append(k, String(v));
    const q = qs.toString();
    return `${base}${path}${q ? `?${q}` : ''}`;
  }

  async send(method: string, path: string, o: RequestOptions = {}): Promise<Response> {
    const attempt = async () => {
      const headers: Record<string, string> = { Accept: 'application/json, application/problem+json;q=0.9, */*;q=0.5' };
      if (!o.anonymous) headers.Authorization = await this.auth.header();
      let body: BodyInit | undefined;
      if (o.form) body = o.form;
      else if (o.text) {
        headers['Content-Type'] = o.text.contentType;
        body = o.text.body;
      }
      else if (o.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(o.json);
      }
      try {
        return await this.fetchImpl(this.url(path, o.query), { method, headers, body });
      } catch (e) {
        throw new RhizomeConnectionError(this.apiUrl, e);
      }
    };
    let res = await attempt();
    if (res.status === 401 && !o.anonymous && (await this.auth.onUnauthorized())) {
      await res.body?.cancel().catch(() => undefined);
      res = await attempt();
    }
    if (res.ok || o.accept?.includes(res.status)) return res;
    throw await RhizomeApiError.fromResponse(res);
  }

  async json<T>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, o);
    if (res.status === 204 || res.status === 202) return undefined as T;
    const text = await res.text();
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new RhizomeApiError(res.status, 'bad_response', `The server sent a response that is not JSON for ${method} ${path}`);
    }
  }
}
