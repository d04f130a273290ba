// `rhizome doctor`: one line per check, ✓ or ✗ with what to do; exit 1 when any fails.
import Database from 'better-sqlite3';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/db/migrate.js';
import { startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { runCli } from './server.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
function env(extra: Record<string, string>): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('RHIZOME_')) e[k] = v;
  return { ...e, RHIZOME_CONFIG_DIR: tmp('rhizome-doctor-config-'), ...extra };
}
const doctor = (extra: Record<string, string>) => runCli(['doctor'], env(extra), undefined, tmpdir());
const line = (out: string, re: RegExp) => out.split('\n').find((l) => re.test(l)) ?? `(no line matching ${re})`;

describe('rhizome doctor', { timeout: 120_000 }, () => {
  let srv: ChildServer;
  let dataDir: string;
  let configDir: string;
  beforeAll(async () => {
    dataDir = tempDataDir();
    configDir = tmp('rhizome-doctor-config-');
    srv = await startServer(dataDir, 0, { RHIZOME_CONFIG_DIR: configDir });
  });
  afterAll(async () => srv?.stop());

  it('a machine that never ran Rhizome: all ✓ but the credentials, which say what to do', async () => {
    const r = await doctor({ RHIZOME_DATA_DIR: join(tmp('rhizome-doctor-'), 'data'), RHIZOME_PORT: '0' });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([expect.stringMatching(/^✗ no credentials for .* — start the server once/)]);
    expect(line(r.stdout, /Node/)).toMatch(/^✓ Node \d+\.\d+\.\d+/);
    expect(line(r.stdout, /^. data folder /)).toMatch(/^✓ .*does not exist yet/);
    expect(line(r.stdout, /model/)).toMatch(/^✓ model use-lite/);
    expect(line(r.stdout, /GB free/)).toMatch(/^✓ \d+\.\d GB free/);
  });

  it('next to a running server: every check passes', async () => {
    const port = new URL(srv.url).port;
    const r = await doctor({ RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: port, RHIZOME_CONFIG_DIR: configDir });
    expect(r.stdout).not.toContain('✗');
    expect(r.code).toBe(0);
    expect(line(r.stdout, /^. database /)).toContain(`intact, schema ${SCHEMA_VERSION} (current)`);
    expect(line(r.stdout, /^. port /)).toContain('a Rhizome server answers');
    expect(line(r.stdout, /credentials/)).toMatch(/^✓ credentials: an API key accepted by http:\/\/127\.0\.0\.1:\d+/);
    expect(line(r.stdout, /^. data folder /)).toMatch(/^✓ .*owner-only, writable/);
  });

  it('a data folder others can read: ✗ and the chmod to run', async () => {
    const dir = tmp('rhizome-doctor-open-');
    chmodSync(dir, 0o755);
    const r = await doctor({ RHIZOME_DATA_DIR: dir, RHIZOME_PORT: '0' });
    expect(line(r.stdout, /^. data folder /)).toBe(`✗ data folder ${dir} is readable by other users (mode 755) — chmod 700 ${dir}`);
  });

  it('a damaged database, and one from a newer Rhizome: ✗ with what to do', async () => {
    const broken = tmp('rhizome-doctor-broken-');
    chmodSync(broken, 0o700);
    writeFileSync(join(broken, 'rhizome.db'), 'SQLite format 3\0' + 'x'.repeat(5000));
    const r = await doctor({ RHIZOME_DATA_DIR: broken, RHIZOME_PORT: '0' });
    expect(line(r.stdout, /^. database /)).toMatch(/^✗ database .*(damaged|cannot be read).* — stop the server and restore a backup/);

    const newer = tmp('rhizome-doctor-newer-');
    const db = new Database(join(newer, 'rhizome.db'));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const n = await doctor({ RHIZOME_DATA_DIR: newer, RHIZOME_PORT: '0' });
    expect(line(n.stdout, /^. database /)).toMatch(new RegExp(`^✗ .*schema ${SCHEMA_VERSION + 1} is newer than this Rhizome .* — upgrade Rhizome`));
  });

  it('a port held by another program: ✗ and how to choose another', async () => {
    const other: Server = createServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    try {
      const port = String((other.address() as { port: number }).port);
      const r = await doctor({ RHIZOME_DATA_DIR: tmp('rhizome-doctor-port-'), RHIZOME_PORT: port });
      expect(line(r.stdout, /^. port /)).toBe(`✗ port 127.0.0.1:${port} is used by another program — start with \`rhizome serve --port <other>\` (or RHIZOME_PORT)`);
    } finally {
      other.close();
    }
  });
});
