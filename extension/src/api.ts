// The few /api/v1 calls the extension makes, with `Authorization: ApiKey ...`. Errors
// carry the server's problem+json title and detail so the popup can show what went wrong.
import type { Settings } from './settings.js';

export interface CaptureBody {
  title: string;
  url?: string;
  content_type: string;
  why?: string;
  selected_text?: string;
  raw_content?: string;
  tags?: string[];
  source: 'browser-extension';
}

export interface Capture {
  id: string;
  status: 'pending' | 'processing' | 'completed' | 'failed' | 'archived' | 'dismissed';
  title: string;
  url: string | null;
  node_id: string | null;
  error: string | null;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export class RhizomeApi {
  constructor(private readonly s: Settings) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.s.serverUrl + path, {
        method,
        headers: { Authorization: `ApiKey ${this.s.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, `Cannot reach Rhizome at ${this.s.serverUrl}. Is the server running?`);
    }
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON */
    }
    if (!res.ok) {
      const title = typeof parsed.title === 'string' ? parsed.title : `HTTP ${res.status}`;
      const detail = typeof parsed.detail === 'string' && parsed.detail ? `: ${parsed.detail}` : '';
      throw new ApiError(res.status, title + detail);
    }
    return parsed as T;
  }

  /** The capture of this URL, or null when it was never captured. */
  async check(url: string): Promise<Capture | null> {
    try {
      return await this.call<Capture>('GET', `/api/v1/captures/check?url=${encodeURIComponent(url)}`);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 400)) return null;
      throw e;
    }
  }

  create(body: CaptureBody): Promise<{ id: string; status: 'pending' }> {
    return this.call('POST', '/api/v1/captures', body);
  }

  /** A node's highlights (W3C quote selectors; /nodes/{id}/highlights). */
  async highlights(nodeId: string): Promise<unknown[]> {
    return (await this.call<{ data: unknown[] }>('GET', `/api/v1/nodes/${encodeURIComponent(nodeId)}/highlights`)).data;
  }

  addHighlight<T = unknown>(nodeId: string, body: { text: string; note?: string; color?: string; selectors: unknown[] }): Promise<T> {
    return this.call('POST', `/api/v1/nodes/${encodeURIComponent(nodeId)}/highlights`, body);
  }

  get(id: string): Promise<Capture> {
    return this.call('GET', `/api/v1/captures/${encodeURIComponent(id)}`);
  }


  /** Any authenticated read proves the key works. */
  async whoami(): Promise<void> {
    await this.call('GET', '/api/v1/captures?per_page=1');
  }

  async health(): Promise<{ status: string; version: string }> {
    let res: Response;
    try {
      res = await fetch(this.s.serverUrl + '/health');
    } catch {
      throw new ApiError(0, `Cannot reach ${this.s.serverUrl}`);
    }
    if (!res.ok) throw new ApiError(res.status, `${this.s.serverUrl}/health answered HTTP ${res.status}`);
    return res.json();
  }
}

export function dashboardLink(s: Settings, kind: 'captures' | 'nodes', id: string): string {
  return `${s.serverUrl}/#/${kind}/${encodeURIComponent(id)}`;
}

/** Polls a capture until it is completed or failed (or gives up after `timeoutMs`). */
export async function follow(api: RhizomeApi, id: string, onChange: (c: Capture) => void, timeoutMs = 120_000): Promise<Capture> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (let wait = 400; ; wait = Math.min(wait * 1.5, 3000)) {
    const c = await api.get(id);
    if (c.status !== last) onChange(c);
    last = c.status;
    if (c.status !== 'pending' && c.status !== 'processing') return c;
    if (Date.now() > deadline) return c;
    await new Promise((r) => setTimeout(r, wait));
  }
}
