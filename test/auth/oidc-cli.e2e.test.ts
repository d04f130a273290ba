// `rhizome login --provider` as a user runs it: the CLI as a child process, its browser
// hook (RHIZOME_OPEN_URL_COMMAND) capturing the URL, the provider's pages driven over HTTP,
// the loopback listener receiving the hand-off; then the device grant, and `rhizome logout`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browse.js';
import { freePort, startOp, type TestOp } from './op.js';
import { startRhizome, type TestRhizome } from './rhizome.js';

const ROOT = resolve(import.meta.dirname, '../..');
let op: TestOp;
let rz: TestRhizome;
let dir: string;

beforeAll(async () => {
  const port = await freePort();
  op = await startOp({ redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/oidc/corp/callback`] });
  rz = await startRhizome({ port, env: { RHIZOME_OIDC_PROVIDERS: 'corp', RHIZOME_OIDC_CORP_ISSUER: op.issuer, RHIZOME_OIDC_CORP_CLIENT_ID: op.clientId, RHIZOME_OIDC_CORP_CLIENT_SECRET: op.clientSecret, RHIZOME_OIDC_CORP_NAME: 'Corp SSO' } });
  await rz.s.tenants.create('home');
  await rz.s.auth.addUser('alice@example.org', 'home');
  dir = mkdtempSync(join(tmpdir(), 'rhizome-cli-oidc-'));
}, 60_000);
afterAll(async () => {
  await rz?.stop();
  await op?.stop();
});

function cli(args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RHIZOME_API_URL: rz.url,
    RHIZOME_CONFIG_DIR: join(dir, 'config'),
    RHIZOME_DATA_DIR: join(dir, 'data'),
    RHIZOME_OPEN_URL_COMMAND: `printf '%s\\n' > ${join(dir, 'opened.txt')}`,
  };
  delete env.RHIZOME_TOKEN;
  const child = spawn(process.execPath, [join(ROOT, 'bin/rhizome.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<number>((r) => child.on('exit', (code) => r(code ?? -1)));
  return { done, out: () => out, err: () => err };
}

async function waitFor<T>(fn: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const session = () => JSON.parse(readFileSync(join(dir, 'config', 'session.json'), 'utf8'))[rz.url] as { refresh_token: string; access_token: string };
const refresh = (token: string) => fetch(`${rz.url}/api/v1/auth/refresh`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: token }) });

describe('rhizome login --provider', () => {
  it('signs in through the browser on a loopback redirect and stores the session 0600', async () => {
    const run = cli(['login', '--provider', 'corp']);
    const start = await waitFor(() => (existsSync(join(dir, 'opened.txt')) ? readFileSync(join(dir, 'opened.txt'), 'utf8').trim() || undefined : undefined), 'the browser hook');
    expect(start).toMatch(/\/api\/v1\/auth\/oidc\/corp\/start\?client=cli&redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
    expect(run.err()).toContain(start); // printed too, for a machine where nothing opens
    const res = await fetch(start, { redirect: 'manual' });
    const callback = await new Browser().run(res.headers.get('location')!, op.issuer, 'alice');
    const back = await fetch(callback, { redirect: 'manual' });
    const loopback = new URL(back.headers.get('location')!);
    expect(loopback.hostname).toBe('127.0.0.1');
    expect(loopback.searchParams.get('oidc_code')).toBeTruthy();
    const page = await fetch(loopback);
    expect(await page.text()).toContain('Signed in to Rhizome');
    expect(await run.done).toBe(0);
    expect(run.out()).toContain('Signed in to');
    expect(statSync(join(dir, 'config', 'session.json')).mode & 0o777).toBe(0o600);
    // The stored session works for ordinary commands.
    const list = cli(['keys', 'list', '--json']);
    expect(await list.done, list.err()).toBe(0);
    expect(JSON.parse(list.out())).toEqual(expect.any(Array));
  });

  it('signs in with the device grant, and `rhizome logout` revokes the session at the server', async () => {
    const run = cli(['login', '--provider', 'corp', '--device']);
    const uri = await waitFor(() => /(http:\/\/127\.0\.0\.1:\d+\/device\?user_code=\S+)/.exec(run.err())?.[1], 'the verification URI');
    await new Browser().run(uri, op.issuer, 'alice');
    expect(await run.done, run.err()).toBe(0);
    const { refresh_token } = session();
    const out = cli(['logout']);
    expect(await out.done).toBe(0);
    expect(out.out()).toContain('Signed out');
    expect((await refresh(refresh_token)).status).toBe(401);
  }, 60_000);

  it('names the configured providers when asked for an unknown one', async () => {
    const run = cli(['login', '--provider', 'nope']);
    expect(await run.done).not.toBe(0);
    expect(run.err()).toContain('corp');
  });
});
