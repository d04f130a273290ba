// Where the Authorization header comes from: an API key (RHIZOME_TOKEN or the local
// server's DATA_DIR/credentials), a caller's own header (the /mcp endpoint), or a login
// session that refreshes itself before expiry and after a 401.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RhizomeApiError, RhizomeAuthMissingError, RhizomeConnectionError } from './errors.js';
import type { ServerRecord } from './server-records.js';
import type { SessionStore, StoredSession } from './session.js';

export interface AuthProvider {
  /** What kind of credential this is, for `rhizome whoami`-style messages. */
  readonly kind: 'api_key' | 'session' | 'header' | 'none';
  header(): Promise<string>;
  /** Called after a 401; true when a retry with a fresh header makes sense. */
  onUnauthorized(): Promise<boolean>;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A fixed header: an API key, or the header an MCP caller sent us. */
export class StaticAuth implements AuthProvider {
  constructor(private readonly value: string, readonly kind: 'api_key' | 'header' = 'api_key') {}
  async header() {
    return this.value;
  }
  async onUnauthorized() {
    return false;
  }
}

/** No credentials were found; fails on the first request that needs them. */
export class MissingAuth implements AuthProvider {
  readonly kind = 'none';
  constructor(private readonly apiUrl: string) {}
  async header(): Promise<string> {
    throw new RhizomeAuthMissingError(this.apiUrl);
  }
  async onUnauthorized() {
    return false;
  }
}

/** Refresh this long before the access token expires, so a request never races expiry. */
export const REFRESH_MARGIN_MS = 60_000;

export class SessionAuth implements AuthProvider {
  readonly kind = 'session';
  private inflight: Promise<void> | undefined;

  constructor(
    private session: StoredSession,
    private readonly o: { apiUrl: string; store: SessionStore; fetch: FetchLike; now: () => number },
  ) {}

  async header(): Promise<string> {
    if (this.o.now() >= this.session.access_expires_at - REFRESH_MARGIN_MS) await this.refresh();
    return `Bearer ${this.session.access_token}`;
  }

  async onUnauthorized(): Promise<boolean> {
    await this.refresh();
    return true;
  }

  /** One refresh at a time: two concurrent ones would look like token reuse and kill the session. */
  refresh(): Promise<void> {
    this.inflight ??= this.doRefresh().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async doRefresh(): Promise<void> {
    const stored = this.o.store.get(this.o.apiUrl);
    if (stored && stored.refresh_token !== this.session.refresh_token && this.o.now() < stored.access_expires_at - REFRESH_MARGIN_MS) {
      this.session = stored; // another process rotated it already
      return;
    }
    const current = stored ?? this.session;
    let res: Response;
    try {
      res = await this.o.fetch(`${this.o.apiUrl.replace(/\/+$/, '')}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh_token: current.refresh_token }),
      });
    } catch (e) {
      throw new RhizomeConnectionError(this.o.apiUrl, e);
    }
    if (!res.ok) {
      const err = await RhizomeApiError.fromResponse(res);
      if (err.status === 401) throw new RhizomeApiError(401, 'unauthorized', `Your login session has ended (${err.detail}); run \`rhizome login\` again`);
      throw err;
    }
    const pair = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
    this.session = {
      ...current,
      access_token: pair.access_token,
      refresh_token: pair.refresh_token,
      access_expires_at: this.o.now() + pair.expires_in * 1000,
    };
    this.o.store.save(this.o.apiUrl, this.session);
  }
}

export function isLocalUrl(apiUrl: string): boolean {
  const host = new URL(apiUrl).hostname.replace(/^\[|\]$/g, '');
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export interface LocalCredentials {
  tenant: string;
  tenant_id: string;
  api_key: string;
  api_url?: string;
}

export function readLocalCredentials(dataDir: string): LocalCredentials | undefined {
  return readCredentialsFile(join(dataDir, 'credentials'));
}

export function readCredentialsFile(file: string): LocalCredentials | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as LocalCredentials;
    return typeof c.api_key === 'string' && c.api_key.includes('.') ? c : undefined;
  } catch {
    return undefined;
  }
}

export interface ResolveAuthOptions {
  apiUrl: string;
  /** False when RHIZOME_API_URL was not given: a credentials file's api_url then decides. */
  apiUrlExplicit?: boolean;
  token?: string;
  dataDir: string;
  /** The per-user config folder (XDG): its `credentials` file is the fallback. */
  configDir?: string;
  store: SessionStore;
  fetch: FetchLike;
  now: () => number;
  /** Running servers' records (server-records.ts), newest first. */
  records?: readonly ServerRecord[];
}

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * Which server to talk to and with what, found from any working folder:
 * 1. RHIZOME_TOKEN (empty counts as unset).
 * 2. RHIZOME_API_URL set and a running server's record (server-records.ts) for it: the
 *    credentials file that server wrote.
 * 3. DATA_DIR/credentials — at the URL of the running server using that data folder, else the
 *    file's saved api_url when RHIZOME_API_URL is not set; its key is used when it names that
 *    server (or the server is on this machine).
 * 4. RHIZOME_API_URL not set: the newest running server's record, with a notice naming the
 *    others and how to choose one.
 * 5. CONFIG_DIR/credentials (XDG), like 3; else the login session.
 */
export function resolveTarget(o: ResolveAuthOptions): { apiUrl: string; auth: AuthProvider; notice?: string } {
  if (o.token) return { apiUrl: o.apiUrl, auth: new StaticAuth(`ApiKey ${o.token}`) };
  const records = o.records ?? [];
  if (o.apiUrlExplicit) {
    const named = fromRecord(records.filter((r) => sameOrigin(r.api_url, o.apiUrl)));
    if (named) return named;
  }
  const own = readLocalCredentials(o.dataDir);
  const ownServer = records.find((r) => r.data_dir === o.dataDir);
  if (own && ownServer && !o.apiUrlExplicit) return { apiUrl: ownServer.api_url, auth: new StaticAuth(`ApiKey ${own.api_key}`) };
  const fromCreds = (creds: LocalCredentials | undefined) => {
    if (!creds) return undefined;
    const apiUrl = !o.apiUrlExplicit && creds.api_url ? creds.api_url : o.apiUrl;
    const fits = creds.api_url ? sameOrigin(creds.api_url, apiUrl) || isLocalUrl(apiUrl) : isLocalUrl(apiUrl);
    return fits ? { apiUrl, auth: new StaticAuth(`ApiKey ${creds.api_key}`) } : undefined;
  };
  const byOwn = fromCreds(own);
  if (byOwn) return byOwn;
  if (!o.apiUrlExplicit) {
    const newest = fromRecord(records);
    if (newest) return newest;
  }
  const byConfig = o.configDir ? fromCreds(readLocalCredentials(o.configDir)) : undefined;
  if (byConfig) return byConfig;
  const session = o.store.get(o.apiUrl);
  if (session) return { apiUrl: o.apiUrl, auth: new SessionAuth(session, { apiUrl: o.apiUrl, store: o.store, fetch: o.fetch, now: o.now }) };
  return { apiUrl: o.apiUrl, auth: new MissingAuth(o.apiUrl) };
}

/** The first (newest) of these records with a readable credentials file; a notice when there are others. */
function fromRecord(candidates: readonly ServerRecord[]): { apiUrl: string; auth: AuthProvider; notice?: string } | undefined {
  const pick = candidates[0];
  if (!pick) return undefined;
  const creds = pick.credentials_file ? readCredentialsFile(pick.credentials_file) : readLocalCredentials(pick.data_dir);
  if (!creds) return undefined;
  const others = candidates.slice(1);
  const notice = others.length
    ? `${candidates.length} Rhizome servers are running; using ${pick.api_url} (data: ${pick.data_dir}). ` +
      `To use another, set RHIZOME_API_URL: ${others.map((r) => `${r.api_url} (data: ${r.data_dir})`).join(', ')}`
    : undefined;
  return { apiUrl: pick.api_url, auth: new StaticAuth(`ApiKey ${creds.api_key}`), notice };
}

export function resolveAuth(o: ResolveAuthOptions): AuthProvider {
  return resolveTarget(o).auth;
}
