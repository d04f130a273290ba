// The package as a user gets it: `npm pack`, then in an empty folder with a fresh HOME,
// `npx --yes --package=./rhizome-<v>.tgz rhizome serve` (what `npx rhizome serve` does once
// published) and a global install of the tarball. Each: /health, a node created and found
// with the CLI from another folder, the dashboard's page and its script served. Installs use
// the npm registry only (onnxruntime-node's CUDA download is skipped; better-sqlite3 builds
// from source when its prebuilt binary cannot be fetched). Run by scripts/test.sh
// (RHIZOME_TEST_PACKAGE=1) or `npm run test:package`; minutes, most of it npm installing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAX_TARBALL_BYTES = 20 * 1024 * 1024;
const MAX_FILES = 400;
const work = mkdtempSync(join(tmpdir(), 'rhizome-package-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started: ChildProcess[] = [];

/** A user's shell on a machine that never saw Rhizome: its own HOME, no RHIZOME_* settings.
 *  npm keeps the machine's own settings (registry, CA file, cache), as a user's would. */
function userEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(RHIZOME_|XDG_|VITEST|npm_)/i.test(k)) continue;
    env[k] = v;
  }
  const npmUserConfig = join(process.env.HOME ?? '', '.npmrc');
  return {
    ...env, HOME: home, ONNXRUNTIME_NODE_INSTALL_CUDA: 'skip', SCARF_ANALYTICS: 'false',
    npm_config_cache: execFileSync(npm, ['config', 'get', 'cache'], { encoding: 'utf8' }).trim(),
    ...(existsSync(npmUserConfig) ? { npm_config_userconfig: npmUserConfig } : {}),
    npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
    ...extra,
  };
}

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(cmd, args, { env, cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20 * 60_000 });
    return { code: 0, stdout, stderr: '' };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    return { code: err.status ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** The `rhizome` command of the npx install made from `tarball` (npx keeps it in
 *  <cache>/_npx/<hash>/, its package.json naming the tarball by a relative file: path). */
const npxDirs: string[] = [];
function npxInstalledBin(cache: string, tarball: string): string {
  const root = join(cache, '_npx');
  const tail = `${basename(dirname(tarball))}/${basename(tarball)}`;
  const dir = readdirSync(root).find((d) => {
    try {
      return readFileSync(join(root, d, 'package.json'), 'utf8').includes(tail);
    } catch {
      return false;
    }
  });
  if (!dir) throw new Error(`no npx install of ${tarball} in ${root}`);
  npxDirs.push(join(root, dir));
  return join(root, dir, 'node_modules', '.bin', 'rhizome');
}

interface Served { url: string; stdout: () => string; stderr: () => string; stop(): Promise<void> }

/** Starts `cmd args` in its own process group and waits for its "listening on" line. */
async function serve(cmd: string, args: string[], env: Record<string, string>, cwd: string, port: number): Promise<Served> {
  const proc = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const deadline = Date.now() + 20 * 60_000;
  while (!new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`).test(err)) {
    if (proc.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited (${proc.exitCode}):\n${out}\n${err}`);
    if (Date.now() > deadline) throw new Error(`no server after 20 minutes:\n${err}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (proc.exitCode === null) process.kill(-proc.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/** What a user checks after starting: the key and dashboard printed, /health, the page and its script. */
async function checkServed(s: Served, home: string) {
  expect(s.stdout()).toMatch(/Its API key \(shown once, also saved to .*\.rhizome\/credentials\)/);
  expect(s.stdout()).toContain(`Dashboard:  ${s.url}/`);
  expect(existsSync(join(home, '.rhizome', 'rhizome.db'))).toBe(true);
  expect(statSync(join(home, '.rhizome', 'credentials')).mode & 0o777).toBe(0o600);
  const health = await fetch(`${s.url}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });
  const page = await fetch(`${s.url}/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /src="(\/assets\/app-[^"]+\.js)"/.exec(html)?.[1];
  expect(script, html.slice(0, 300)).toBeDefined();
  expect((await fetch(`${s.url}${script}`)).status).toBe(200);
}

let tarball = '';
const timings: Record<string, number> = {};

beforeAll(() => {
  const t0 = Date.now();
  const r = run(npm, ['pack', '--json', '--pack-destination', work], { ...process.env } as Record<string, string>, resolve('.'));
  if (r.code !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
  const [report] = JSON.parse(r.stdout) as { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[];
  tarball = join(work, report.filename);
  timings.pack_s = (Date.now() - t0) / 1000;
  process.stdout.write(`package: ${report.filename} ${(report.size / 1048576).toFixed(1)} MB packed, ${(report.unpackedSize / 1048576).toFixed(1)} MB unpacked, ${report.entryCount} files\n`);
  packed = report;
}, 10 * 60_000);
let packed: { size: number; entryCount: number; files: { path: string }[] };

afterAll(async () => {
  for (const p of started) if (p.exitCode === null) try { process.kill(-p.pid!, 'SIGKILL'); } catch { /* gone */ }
  process.stdout.write(`package test timings (s): ${JSON.stringify(timings)}\n`);
  // The npx install of a throw-away tarball is of no use to anyone later.
  for (const d of npxDirs) rmSync(d, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it(`is at most ${MAX_TARBALL_BYTES / 1048576} MB and ${MAX_FILES} files, with dist/ and no tests, bench, lab or screenshots`, () => {
    expect(packed.size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
    expect(packed.entryCount).toBeLessThanOrEqual(MAX_FILES);
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/rhizome.js', 'dist/rhizome.js', 'dist/web/index.html', 'dist/rhizome-extension.zip', 'schema.sql', 'src/db/pg/schema.pg.sql', 'npm-shrinkwrap.json']));
    expect(paths.filter((p) => /^(test|bench|lab|docs|src\/(?!db\/pg\/schema\.pg\.sql$))|\.png$|^dist\/(bench|eval)/.test(p))).toEqual([]);
  });

  it('npx --package=<tarball> rhizome serve, in an empty folder with a fresh HOME', async () => {
    const home = mkdtempSync(join(work, 'home-npx-'));
    const empty = mkdtempSync(join(work, 'empty-'));
    copyFileSync(tarball, join(empty, 'rhizome.tgz'));
    const port = await freePort();
    const env = userEnv(home);
    const t0 = Date.now();
    const s = await serve('npx', ['--yes', '--package=./rhizome.tgz', 'rhizome', 'serve', '--port', String(port)], env, empty, port);
    timings.npx_install_and_start_s = (Date.now() - t0) / 1000;
    try {
      await checkServed(s, home);
      // The CLI from another folder: the `rhizome` npx installed above (what `npx rhizome …`
      // runs once published; npx keys its cache by the spec as typed, so `./rhizome.tgz` would
      // not name this install from another folder).
      const other = mkdtempSync(join(work, 'other-'));
      const bin = npxInstalledBin(env.npm_config_cache, join(empty, 'rhizome.tgz'));
      const cli = (...args: string[]) => run(bin, args, env, other);
      const add = cli('node', 'add', 'Packed and found', '-c', 'Started with npx in an empty folder.', '--json');
      expect(add.code, add.stderr).toBe(0);
      const found = cli('search', 'packed', '--mode', 'keyword', '--json');
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toContain('Packed and found');
    } finally {
      await s.stop();
    }
  }, 25 * 60_000);

  it('npm install -g <tarball>, then rhizome serve and the CLI from other folders', async () => {
    const home = mkdtempSync(join(work, 'home-global-'));
    const prefix = join(work, 'prefix');
    mkdirSync(prefix);
    const env = userEnv(home, { npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
    const t0 = Date.now();
    const install = run(npm, ['install', '-g', tarball], env, home);
    timings.global_install_s = (Date.now() - t0) / 1000;
    expect(install.code, install.stderr).toBe(0);
    const bin = join(prefix, 'bin', 'rhizome');
    expect(existsSync(bin)).toBe(true);
    const version = run(bin, ['--version'], env, home);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    const port = await freePort();
    const folder = mkdtempSync(join(work, 'folder-'));
    const s = await serve(bin, ['serve', '--port', String(port)], env, folder, port);
    try {
      await checkServed(s, home);
      const other = mkdtempSync(join(work, 'other-'));
      const add = run(bin, ['node', 'add', 'Installed globally', '-c', 'npm install -g of the tarball.', '--json'], env, other);
      expect(add.code, add.stderr).toBe(0);
      const found = run(bin, ['search', 'globally', '--mode', 'keyword', '--json'], env, other);
      expect(found.stdout).toContain('Installed globally');
      const doctor = run(bin, ['doctor'], env, other);
      expect(doctor.stdout, doctor.stderr).toMatch(/✓ Node/);
    } finally {
      await s.stop();
    }
  }, 25 * 60_000);
});
