// The typed Rhizome API client used by the CLI and the MCP server.
import type { Config } from '../config.js';
import { resolveTarget, SessionAuth, type AuthProvider, type FetchLike } from './auth.js';
import { HttpCore } from './http.js';
import { liveServerRecords } from './server-records.js';
import { SessionStore } from './session.js';
import type * as T from './types.js';

export interface ClientOptions {
  apiUrl: string;
  auth: AuthProvider;
  fetch?: FetchLike;
  store?: SessionStore;
  now?: () => number;
}

const enc = encodeURIComponent;

export class RhizomeClient {
  readonly apiUrl: string;
  readonly auth: AuthProvider;
  readonly store: SessionStore | undefined;
  private readonly http: HttpCore;
  private readonly fetchImpl: FetchLike;
  private readonly now: () => number;

  constructor(o: ClientOptions) {
    this.apiUrl = o.apiUrl.replace(/\/+$/, '');
    this.auth = o.auth;
    this.store = o.store;
    this.fetchImpl = o.fetch ?? ((input, init) => fetch(input, init));
    this.now = o.now ?? Date.now;
    this.http = new HttpCore(this.apiUrl, this.auth, this.fetchImpl);
  }

  /** A client configured from RHIZOME_API_URL / RHIZOME_TOKEN / credentials / login session. */
  static fromConfig(config: Config, o: { fetch?: FetchLike; now?: () => number } = {}): RhizomeClient {
    const store = new SessionStore(config.clientConfigDir);
    const fetchImpl = o.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
    const now = o.now ?? Date.now;
    const { apiUrl, auth, notice } = resolveTarget({
      apiUrl: config.apiUrl, apiUrlExplicit: config.apiUrlExplicit, token: config.clientToken, dataDir: config.dataDir,
      configDir: config.clientConfigDir, store, fetch: fetchImpl, now,
      records: config.clientToken ? [] : liveServerRecords(config.clientConfigDir),
    });
    if (notice) process.stderr.write(`rhizome: ${notice}\n`);
    return new RhizomeClient({ apiUrl, auth, fetch: fetchImpl, store, now });
  }

  // ------------------------------------------------------------ login (magic link)
  requestMagicLink(email: string): Promise<void> {
    return this.http.json('POST', '/api/v1/auth/magic-link', { json: { email }, anonymous: true });
  }

  /** Exchanges the token from the link and stores the session (0600) for this API URL. */
  async login(token: string, email?: string): Promise<T.TokenPair> {
    const pair = await this.http.json<T.TokenPair>('POST', '/api/v1/auth/magic-link/verify', { json: { token }, anonymous: true });
    this.store?.save(this.apiUrl, {
      access_token: pair.access_token,
      refresh_token: pair.refresh_token,
      access_expires_at: this.now() + pair.expires_in * 1000,
      ...(email ? { email } : {}),
    });
    return pair;
  }

  logout(): boolean {
    return this.store?.remove(this.apiUrl) ?? false;
  }

  /** Forces a token rotation (bearer sessions only). */
  async refreshSession(): Promise<void> {
    if (this.auth instanceof SessionAuth) await this.auth.refresh();
  }

  // ------------------------------------------------------------ nodes and search
  search(p: T.SearchParams = {}): Promise<T.SearchResult> {
    return this.http.json('GET', '/api/v1/nodes', { query: { ...p } });
  }
  getNode(id: string): Promise<T.Node> {
    return this.http.json('GET', `/api/v1/nodes/${enc(id)}`);
  }
  createNode(input: T.NodeInput): Promise<T.Node> {
    return this.http.json('POST', '/api/v1/nodes', { json: input });
  }
  /** Up to 500 nodes in one request: per-item results in order (a node, or the problem that refused it). */
  createNodes(nodes: T.NodeInput[]): Promise<T.NodeBatchResult> {
    return this.http.json('POST', '/api/v1/nodes/batch', { json: { nodes } });
  }
  updateNode(id: string, patch: T.NodePatch): Promise<T.Node> {
    return this.http.json('PATCH', `/api/v1/nodes/${enc(id)}`, { json: patch });
  }
  deleteNode(id: string): Promise<void> {
    return this.http.json('DELETE', `/api/v1/nodes/${enc(id)}`);
  }

  // ------------------------------------------------------------ tags
  async tags(): Promise<T.Tag[]> {
    return (await this.http.json<{ data: T.Tag[] }>('GET', '/api/v1/tags')).data;
  }
  renameTag(name: string, to: string): Promise<T.Tag> {
    return this.http.json('PATCH', `/api/v1/tags/${enc(name)}`, { json: { name: to } });
  }
  deleteTag(name: string): Promise<void> {
    return this.http.json('DELETE', `/api/v1/tags/${enc(name)}`);
  }

  // ------------------------------------------------------------ links
  setLinks(id: string, links: T.Link[]): Promise<{ links: T.Link[] }> {
    return this.http.json('PATCH', `/api/v1/nodes/${enc(id)}/links`, { json: { links } });
  }
  async related(id: string, limit?: number): Promise<T.RelatedNode[]> {
    const r = await this.http.json<{ nodes: T.RelatedNode[] }>('GET', `/api/v1/nodes/${enc(id)}/related`, { query: { limit } });
    return r.nodes;
  }
  /** The node's current links, all of them (links are bidirectional, so these are its neighbours). */
  async links(id: string): Promise<T.Link[]> {
    return (await this.http.json<{ links: T.Link[] }>('GET', `/api/v1/nodes/${enc(id)}/links`)).links;
  }
  /** Adds links, keeping the existing ones (the API's PATCH replaces the whole set). */
  async addLinks(id: string, add: T.Link[]): Promise<T.Link[]> {
    const current = await this.links(id);
    const key = (l: T.Link) => `${l.target_id}\u0000${l.type}`;
    const merged = new Map(current.map((l) => [l.target_id, l]));
    for (const l of add) merged.set(l.target_id, l); // one link per pair: a new type replaces the old
    const links = [...merged.values()];
    if (links.length !== current.length || links.some((l, i) => key(l) !== key(current[i]))) await this.setLinks(id, links);
    return links;
  }
  async removeLinks(id: string, targetIds: string[]): Promise<T.Link[]> {
    const current = await this.links(id);
    const drop = new Set(targetIds);
    const links = current.filter((l) => !drop.has(l.target_id));
    if (links.length !== current.length) await this.setLinks(id, links);
    return links;
  }
  async suggestLinks(text: string): Promise<T.LinkSuggestion[]> {
    return (await this.http.json<{ suggestions: T.LinkSuggestion[] }>('GET', '/api/v1/links/suggestions', { query: { text } })).suggestions;
  }

  // ------------------------------------------------------------ PARA
  paraTree(includeArchived?: boolean): Promise<T.ParaTree> {
    return this.http.json('GET', '/api/v1/para/tree', { query: { include_archived: includeArchived ? 'true' : undefined } });
  }
  async paraList(q: { category?: T.ParaCategory; status?: string } = {}): Promise<T.ParaItem[]> {
    const r = await this.http.json<T.ParaItem[] | { data: T.ParaItem[] }>('GET', '/api/v1/para', { query: q });
    return Array.isArray(r) ? r : r.data;
  }
  paraGet(id: string): Promise<T.ParaItem> {
    return this.http.json('GET', `/api/v1/para/${enc(id)}`);
  }
  paraCreate(input: { category: T.ParaCategory; label: string; description?: string }): Promise<T.ParaItem> {
    return this.http.json('POST', '/api/v1/para', { json: input });
  }
  paraUpdate(id: string, patch: { label?: string; description?: string; status?: string }): Promise<T.ParaItem> {
    return this.http.json('PATCH', `/api/v1/para/${enc(id)}`, { json: patch });
  }
  paraAction(id: string, action: 'archive' | 'unarchive' | 'complete' | 'undo-complete' | 'match'): Promise<T.ParaItem | Record<string, unknown>> {
    return this.http.json('POST', `/api/v1/para/${enc(id)}/${action}`);
  }
  paraRescan(): Promise<{ queued: number }> {
    return this.http.json('POST', '/api/v1/para/rescan');
  }

  // ------------------------------------------------------------ import and export
  /** Starts importing a vault zip; answers at once with the run's id (202). */
  async importMarkdown(zip: Uint8Array<ArrayBuffer>, o: { name?: string; paraFromFolders?: boolean } = {}): Promise<T.ImportAccepted> {
    const form = new FormData();
    form.set('file', new Blob([zip], { type: 'application/zip' }), o.name ?? 'vault.zip');
    if (o.paraFromFolders) form.set('para_from_folders', 'true');
    return (await this.http.send('POST', '/api/v1/imports/markdown', { form })).json() as Promise<T.ImportAccepted>;
  }
  /** Starts importing a bookmark file (the server recognises its format). */
  async importBookmarks(file: { name: string; data: Uint8Array<ArrayBuffer> }): Promise<T.ImportAccepted> {
    const form = new FormData();
    form.set('file', new Blob([file.data]), file.name);
    return (await this.http.send('POST', '/api/v1/imports/bookmarks', { form })).json() as Promise<T.ImportAccepted>;
  }
  /** Starts importing Kindle's My Clippings.txt or a Readwise CSV (the server recognises which). */
  async importHighlights(file: { name: string; data: Uint8Array<ArrayBuffer> }): Promise<T.ImportAccepted> {
    const form = new FormData();
    form.set('file', new Blob([file.data]), file.name);
    return (await this.http.send('POST', '/api/v1/imports/highlights', { form })).json() as Promise<T.ImportAccepted>;
  }
  getImport(id: string): Promise<T.ImportRun> {
    return this.http.json('GET', `/api/v1/imports/${enc(id)}`);
  }
  /** The whole tenant as a Markdown vault in one zip. */
  async exportMarkdownZip(): Promise<Uint8Array<ArrayBuffer>> {
    const res = await this.http.send('GET', '/api/v1/exports/markdown');
    return new Uint8Array(await res.arrayBuffer());
  }
  exportJson(): Promise<Record<string, unknown>> {
    return this.http.json('GET', '/api/v1/exports/json');
  }

  // ------------------------------------------------------------ captures
  capture(input: T.CaptureInput): Promise<T.Capture> {
    return this.http.json('POST', '/api/v1/captures', { json: input });
  }
  upload(file: { name: string; data: Uint8Array<ArrayBuffer>; type?: string }, o: { title?: string; why?: string; source?: T.CaptureSource } = {}): Promise<T.Capture> {
    const form = new FormData();
    form.set('file', new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name);
    if (o.title) form.set('title', o.title);
    if (o.why) form.set('why', o.why);
    if (o.source) form.set('source', o.source);
    return this.http.json('POST', '/api/v1/captures/upload', { form });
  }
  /** Whether this URL was captured before (the API answers 200 or 404). */
  /** The latest capture of this URL (compared in normal form), or null when it was never captured. */
  async checkCapture(url: string): Promise<T.Capture | null> {
    const res = await this.http.send('GET', '/api/v1/captures/check', { query: { url }, accept: [404] });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    return (await res.json()) as T.Capture;
  }
  captures(q: { page?: number; per_page?: number; status?: string } = {}): Promise<T.CaptureList> {
    return this.http.json('GET', '/api/v1/captures', { query: q });
  }
  getCapture(id: string): Promise<T.Capture> {
    return this.http.json('GET', `/api/v1/captures/${enc(id)}`);
  }
  captureAction(id: string, action: 'retry' | 'reingest' | 'archive' | 'unarchive' | 'dismiss'): Promise<T.Capture | undefined> {
    return this.http.json('POST', `/api/v1/captures/${enc(id)}/${action}`);
  }
  /** A node's highlights, each re-anchored in its current text. */
  async highlights(nodeId: string): Promise<T.NodeHighlight[]> {
    return (await this.http.json<{ data: T.NodeHighlight[] }>('GET', `/api/v1/nodes/${enc(nodeId)}/highlights`)).data;
  }
  addHighlight(nodeId: string, body: { text: string; note?: string | null; color?: T.NodeHighlight['color'] }): Promise<T.NodeHighlight> {
    return this.http.json('POST', `/api/v1/nodes/${enc(nodeId)}/highlights`, { json: body });
  }
  /** Asks whether each captured page is still there; marks the gone ones. */
  checkCaptureLinks(): Promise<{ checked: number; gone: Array<{ capture_id: string; url: string; reason: string }>; unknown: number }> {
    return this.http.json('POST', '/api/v1/captures/check-links');
  }
  /** Fetches the page again and replaces its archived copy (in the background). */
  rearchiveCapture(id: string): Promise<{ capture_id: string; status: 'queued' }> {
    return this.http.json('POST', `/api/v1/captures/${enc(id)}/snapshot`);
  }
  deleteCapture(id: string): Promise<void> {
    return this.http.json('DELETE', `/api/v1/captures/${enc(id)}`);
  }
  async captureActivity(id: string): Promise<T.ActivityEntry[]> {
    return (await this.http.json<{ data: T.ActivityEntry[] }>('GET', `/api/v1/captures/${enc(id)}/activity`)).data;
  }
  captureProvenance(id: string): Promise<{ capture_id: string; stages: Array<Record<string, unknown>> }> {
    return this.http.json('GET', `/api/v1/captures/${enc(id)}/provenance`);
  }
  async captureContent(id: string, format?: 'markdown'): Promise<{ contentType: string; body: Uint8Array }> {
    const res = await this.http.send('GET', `/api/v1/captures/${enc(id)}/content`, { query: { format } });
    return { contentType: res.headers.get('content-type') ?? 'application/octet-stream', body: new Uint8Array(await res.arrayBuffer()) };
  }

  // ------------------------------------------------------------ feeds
  async feeds(): Promise<T.Feed[]> {
    return (await this.http.json<{ data: T.Feed[] }>('GET', '/api/v1/feeds')).data;
  }
  subscribeFeed(input: T.FeedInput): Promise<T.Feed> {
    return this.http.json('POST', '/api/v1/feeds', { json: input });
  }
  getFeed(id: string): Promise<T.Feed> {
    return this.http.json('GET', `/api/v1/feeds/${enc(id)}`);
  }
  updateFeed(id: string, patch: T.FeedPatch): Promise<T.Feed> {
    return this.http.json('PATCH', `/api/v1/feeds/${enc(id)}`, { json: patch });
  }
  deleteFeed(id: string): Promise<void> {
    return this.http.json('DELETE', `/api/v1/feeds/${enc(id)}`);
  }
  async pollFeed(id: string): Promise<void> {
    await this.http.json('POST', `/api/v1/feeds/${enc(id)}/poll`);
  }
  async exportOpml(): Promise<string> {
    return (await this.http.send('GET', '/api/v1/feeds/opml')).text();
  }
  importOpml(xml: string): Promise<T.OpmlImported> {
    return this.http.json('POST', '/api/v1/feeds/opml', { text: { body: xml, contentType: 'text/x-opml' } });
  }

  // ------------------------------------------------------------ context, statistics, keys
  async context(p: T.ContextParams = {}): Promise<T.ContextNode[]> {
    return (await this.http.json<{ nodes: T.ContextNode[] }>('POST', '/api/v1/context', { json: p })).nodes;
  }
  /** An answer from the notes with its citations (POST /ask). */
  ask(p: T.AskParams): Promise<T.AskResult> {
    return this.http.json('POST', '/api/v1/ask', { json: p });
  }
  graphHealth(): Promise<T.GraphHealth> {
    return this.http.json('GET', '/api/v1/graph-health');
  }
  serverHealth(): Promise<T.ServerHealth> {
    return this.http.json('GET', '/health');
  }
  async apiKeys(): Promise<T.ApiKey[]> {
    return (await this.http.json<{ data: T.ApiKey[] }>('GET', '/api/v1/auth/api-keys')).data;
  }
  createApiKey(name: string): Promise<T.ApiKeyCreated> {
    return this.http.json('POST', '/api/v1/auth/api-keys', { json: { name } });
  }
  revokeApiKey(id: string): Promise<void> {
    return this.http.json('DELETE', `/api/v1/auth/api-keys/${enc(id)}`);
  }
}
