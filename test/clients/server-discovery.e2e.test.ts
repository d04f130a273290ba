// The CLI finds a running server from any folder: the server records where it listens and
// which credentials file it wrote in the per-user config folder (0600); with several servers
// the CLI says which one it picked and how to choose another; a stopped server's record goes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { runCli } from './server.js';

describe('the CLI finds a running server from any folder', { timeout: 180_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), 'rhizome-home-'));
  const configDir = join(home, '.config', 'rhizome');
  const elsewhere = mkdtempSync(join(tmpdir(), 'rhizome-elsewhere-'));
  const servers: ChildServer[] = [];
  /** A user's shell: no RHIZOME_* settings, a home of its own, some other working folder. */
  const env = (extra: Record<string, string> = {}) => {
    const e: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('RHIZOME_') && !k.startsWith('XDG_')) e[k] = v;
    return { ...e, HOME: home, ...extra };
  };
  const cli = (args: string[], extra?: Record<string, string>) => runCli(args, env(extra), undefined, elsewhere);

  beforeAll(async () => {
    servers.push(await startServer(tempDataDir(), 0, { RHIZOME_CONFIG_DIR: configDir }));
  });
  afterAll(async () => {
    for (const s of servers) if (s.proc.exitCode === null) await s.stop();
  });

  it('the server writes an owner-only record naming its URL and credentials file', () => {
    const dir = join(configDir, 'servers');
    const [name] = readdirSync(dir);
    const file = join(dir, name);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec).toMatchObject({ api_url: servers[0].url, pid: servers[0].proc.pid, credentials_file: expect.stringMatching(/credentials$/) });
    expect(existsSync(rec.credentials_file)).toBe(true);
    expect(servers[0].stdout()).toContain(`Dashboard:  ${servers[0].url}/`);
  });

  it('a node created and found from another folder, with no settings', async () => {
    const add = await cli(['node', 'add', 'Found from anywhere', '-c', 'The CLI read the server record.', '--json']);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const found = await cli(['search', 'anywhere', '--mode', 'keyword', '--json']);
    expect(found.code).toBe(0);
    expect(JSON.stringify(JSON.parse(found.stdout))).toContain('Found from anywhere');
  });

  it('with two servers it names the one it picked and how to choose the other', async () => {
    servers.push(await startServer(tempDataDir(), 0, { RHIZOME_CONFIG_DIR: configDir }));
    const [first, second] = servers;
    const h = await cli(['health']);
    expect(h.code).toBe(0);
    expect(h.stderr).toContain('2 Rhizome servers are running; using');
    expect(h.stderr).toContain(`set RHIZOME_API_URL: ${first.url}`); // the newest is picked; the older is offered
    expect(h.stdout).toContain(`${second.url} — ok`);
    const chosen = await cli(['health'], { RHIZOME_API_URL: first.url });
    expect(chosen.stderr).toBe('');
    expect(chosen.stdout).toContain(`${first.url} — ok`);
    const search = await cli(['search', 'anywhere', '--mode', 'keyword', '--json'], { RHIZOME_API_URL: first.url });
    expect(search.stdout).toContain('Found from anywhere');
  });

  it('a stopped server removes its record', async () => {
    await servers[1].stop();
    expect(readdirSync(join(configDir, 'servers'))).toHaveLength(1);
    const h = await cli(['health']);
    expect(h.stderr).toBe('');
    expect(h.stdout).toContain(`${servers[0].url} — ok`);
  });
});
