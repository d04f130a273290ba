// Login sessions from `rhizome login`, one per API URL, in CONFIG_DIR/session.json (0600).
// Several processes (a CLI call, an MCP server) may share a session: before refreshing,
// a client re-reads the file and adopts a refresh token another process already rotated.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredSession {
  access_token: string;
  refresh_token: string;
  /** Epoch ms at which the access token stops working. */
  access_expires_at: number;
  email?: string;
}

type SessionFile = Record<string, StoredSession>;

/** Sessions are keyed by origin + path without a trailing slash. */
export function sessionKey(apiUrl: string): string {
  const u = new URL(apiUrl);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export class SessionStore {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = join(dir, 'session.json');
  }

  private readAll(): SessionFile {
    if (!existsSync(this.file)) return {};
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as SessionFile) : {};
    } catch {
      return {};
    }
  }

  private writeAll(all: SessionFile): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  get(apiUrl: string): StoredSession | undefined {
    const s = this.readAll()[sessionKey(apiUrl)];
    return s && typeof s.access_token === 'string' && typeof s.refresh_token === 'string' ? s : undefined;
  }

  save(apiUrl: string, session: StoredSession): void {
    const all = this.readAll();
    all[sessionKey(apiUrl)] = session;
    this.writeAll(all);
  }

  /** Returns whether there was a session to forget. */
  remove(apiUrl: string): boolean {
    const all = this.readAll();
    const key = sessionKey(apiUrl);
    if (!(key in all)) return false;
    delete all[key];
    if (Object.keys(all).length) this.writeAll(all);
    else rmSync(this.file, { force: true });
    return true;
  }
}
