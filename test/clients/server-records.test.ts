// Which running server the CLI picks from the records servers leave in the config folder
// (client/server-records.ts, client/auth.ts): a record of a process that is gone is dropped;
// the record of this folder's data folder wins over a newer one; RHIZOME_API_URL picks its own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTarget, type AuthProvider } from '../../src/client/auth.js';
import { liveServerRecords, removeServerRecord, serverRecordsDir, writeServerRecord, type ServerRecord } from '../../src/client/server-records.js';
import { SessionStore } from '../../src/client/session.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'rhizome-records-'));
/** A data folder with a credentials file holding `key`. */
function dataDir(key: string, apiUrl: string): string {
  const d = tmp();
  writeFileSync(join(d, 'credentials'), JSON.stringify({ tenant: 'default', tenant_id: 't', api_key: key, api_url: apiUrl }), { mode: 0o600 });
  return d;
}
const record = (apiUrl: string, data: string, startedAt: string, pid = process.pid): ServerRecord => ({
  api_url: apiUrl, pid, data_dir: data, credentials_file: join(data, 'credentials'), started_at: startedAt,
});
const header = (auth: AuthProvider) => auth.header();
function target(config: { dataDir: string; configDir: string; apiUrl?: string }) {
  return resolveTarget({
    apiUrl: config.apiUrl ?? 'http://127.0.0.1:7777', apiUrlExplicit: config.apiUrl !== undefined, dataDir: config.dataDir, configDir: config.configDir,
    store: new SessionStore(config.configDir), fetch: fetch, now: Date.now, records: liveServerRecords(config.configDir),
  });
}

describe('server records', () => {
  it('are written owner-only, listed newest first, and removed by their own process only', () => {
    const config = tmp();
    const a = dataDir('k1.a', 'http://127.0.0.1:7001');
    writeServerRecord(config, record('http://127.0.0.1:7001', a, '2026-11-01T00:00:00Z'));
    writeServerRecord(config, record('http://[::1]:7002', a, '2026-11-02T00:00:00Z'));
    expect(statSync(serverRecordsDir(config)).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(serverRecordsDir(config))) expect(statSync(join(serverRecordsDir(config), f)).mode & 0o777).toBe(0o600);
    expect(liveServerRecords(config).map((r) => r.api_url)).toEqual(['http://[::1]:7002', 'http://127.0.0.1:7001']);
    removeServerRecord(config, 'http://127.0.0.1:7001', process.pid + 1); // not its process: kept
    expect(liveServerRecords(config)).toHaveLength(2);
    removeServerRecord(config, 'http://127.0.0.1:7001');
    expect(liveServerRecords(config).map((r) => r.api_url)).toEqual(['http://[::1]:7002']);
  });

  it('a record whose process is gone is ignored and removed', () => {
    const config = tmp();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    writeServerRecord(config, record('http://127.0.0.1:7003', tmp(), '2026-11-03T00:00:00Z', deadPid));
    expect(liveServerRecords(config)).toEqual([]);
    expect(readdirSync(serverRecordsDir(config))).toEqual([]);
  });

  it("this folder's data folder wins over a newer server, and RHIZOME_API_URL picks its own record", async () => {
    const config = tmp();
    const mine = dataDir('mine.key', 'http://127.0.0.1:7101');
    const other = dataDir('other.key', 'http://127.0.0.1:7102');
    writeServerRecord(config, record('http://127.0.0.1:7101', mine, '2026-11-01T00:00:00Z'));
    writeServerRecord(config, record('http://127.0.0.1:7102', other, '2026-11-02T00:00:00Z'));

    const here = target({ dataDir: mine, configDir: config });
    expect(here.apiUrl).toBe('http://127.0.0.1:7101');
    expect(await header(here.auth)).toBe('ApiKey mine.key');
    expect(here.notice).toBeUndefined(); // this folder's own server: no choice to explain

    const elsewhere = target({ dataDir: join(tmp(), 'none'), configDir: config });
    expect(elsewhere.apiUrl).toBe('http://127.0.0.1:7102'); // the newest
    expect(await header(elsewhere.auth)).toBe('ApiKey other.key');
    expect(elsewhere.notice).toBe(`2 Rhizome servers are running; using http://127.0.0.1:7102 (data: ${other}). To use another, set RHIZOME_API_URL: http://127.0.0.1:7101 (data: ${mine})`);

    const chosen = target({ dataDir: join(tmp(), 'none'), configDir: config, apiUrl: 'http://127.0.0.1:7101' });
    expect(chosen.apiUrl).toBe('http://127.0.0.1:7101');
    expect(await header(chosen.auth)).toBe('ApiKey mine.key');
    expect(chosen.notice).toBeUndefined();
  });

  it("this folder's credentials name a server that is not running: they decide, not another server's record", async () => {
    const config = tmp();
    const stopped = dataDir('stopped.key', 'http://127.0.0.1:7301');
    writeServerRecord(config, record('http://127.0.0.1:7302', dataDir('running.key', 'http://127.0.0.1:7302'), '2026-11-02T00:00:00Z'));
    const t = target({ dataDir: stopped, configDir: config });
    expect(t.apiUrl).toBe('http://127.0.0.1:7301');
    expect(await header(t.auth)).toBe('ApiKey stopped.key');
  });

  it('no records: the data folder credentials decide, as before', async () => {
    const config = tmp();
    mkdirSync(serverRecordsDir(config), { recursive: true });
    const d = dataDir('plain.key', 'http://127.0.0.1:7201');
    const t = target({ dataDir: d, configDir: config });
    expect(t.apiUrl).toBe('http://127.0.0.1:7201');
    expect(await header(t.auth)).toBe('ApiKey plain.key');
    expect(existsSync(join(config, 'servers'))).toBe(true);
  });
});
