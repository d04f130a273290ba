// Where running servers are: each server writes <config>/servers/<host>_<port>.json (0600)
// naming its URL, its data folder and the credentials file it wrote; it removes the file when
// it stops. The CLI reads these from any working folder (a record whose process is gone is
// dropped), so `rhizome search` finds a server started from a checkout or with npx.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServerRecord {
  api_url: string;
  pid: number;
  data_dir: string;
  /** The credentials file the server wrote (its first tenant's API key), if any. */
  credentials_file?: string;
  version?: string;
  started_at: string;
}

export const serverRecordsDir = (configDir: string) => join(configDir, 'servers');
const fileFor = (configDir: string, apiUrl: string) => join(serverRecordsDir(configDir), `${new URL(apiUrl).host.replace(/[^a-zA-Z0-9.-]/g, '_')}.json`);

export function writeServerRecord(configDir: string, record: ServerRecord): string {
  mkdirSync(serverRecordsDir(configDir), { recursive: true, mode: 0o700 });
  const file = fileFor(configDir, record.api_url);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode on overwrite
  return file;
}

/** Removes the record if it is still this process's (another server may hold the port now). */
export function removeServerRecord(configDir: string, apiUrl: string, pid = process.pid): void {
  const file = fileFor(configDir, apiUrl);
  const rec = readRecord(file);
  if (rec?.pid === pid) rmSync(file, { force: true });
}

function readRecord(file: string): ServerRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as ServerRecord;
    return typeof r.api_url === 'string' && Number.isInteger(r.pid) ? r : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records of servers whose process still runs, newest first; stale records are removed. */
export function liveServerRecords(configDir: string): ServerRecord[] {
  const dir = serverRecordsDir(configDir);
  if (!existsSync(dir)) return [];
  const out: ServerRecord[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const rec = readRecord(join(dir, f));
    if (rec && alive(rec.pid)) out.push(rec);
    else if (rec) rmSync(join(dir, f), { force: true });
  }
  return out.sort((a, b) => b.started_at.localeCompare(a.started_at));
}
