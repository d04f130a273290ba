// End-to-end harness for the dashboard: a real `rhizome serve` child process on a temp
// data folder, and Debian's headless Chromium driven by playwright-core.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = join(ROOT, 'test/artifacts');

export function chromiumPath(): string {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      /* try the next name */
    }
  }
  throw new Error(
    'Chromium is not installed, so the dashboard end-to-end tests cannot run. Install it with ' +
      '`apt-get update && apt-get install -y chromium` (CI\'s .ci/run does this).',
  );
}

export interface Server {
  url: string;
  dataDir: string;
  apiKey: string;
  log: () => string;
  cli: (...args: string[]) => string;
  stop: () => Promise<void>;
}

/** A dashboard server on a free port (0: the system picks; its "listening" line names it). */
export async function startServer(port = 0): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-web-'));
  const env: NodeJS.ProcessEnv = { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: String(port), RHIZOME_HOST: '127.0.0.1', RHIZOME_LOG: 'info', RHIZOME_SYNCHRONOUS: 'NORMAL' };
  delete env.RHIZOME_TOKEN;
  delete env.RHIZOME_PUBLIC_URL;
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin/rhizome.js'), 'serve'], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let url = '';
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}; is port ${port} in use?):\n${out}`);
    // Our own child's log line, not just any answer on the port (another process may hold it).
    const heard = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
    if (heard && (port === 0 || Number(heard[2]) === port)) {
      url = heard[1];
      break;
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const creds = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')) as { api_key: string };
  return {
    url,
    dataDir,
    apiKey: creds.api_key,
    log: () => out,
    cli: (...args) => execFileSync(process.execPath, [join(ROOT, 'bin/rhizome.js'), ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    stop: async () => {
      if (child.exitCode === null) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Browsing {
  browser: Browser;
  newContext: (opts?: { width?: number; height?: number; apiKey?: string; baseUrl?: string; dark?: boolean }) => Promise<BrowserContext>;
  close: () => Promise<void>;
}

/**
 * Fails the test run on any Content Security Policy violation in a page: the browser's
 * `securitypolicyviolation` events, reported to the console by an init script in every
 * frame (a worker the policy refuses to create is reported there too). Reports about
 * documents a script parsed but never showed are left out: DOMPurify parses a note's HTML
 * with DOMParser, and Chromium checks that inert document's inline handlers against the
 * policy although nothing in it can run.
 */
export function failOnCspViolations(ctx: BrowserContext): void {
  void ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const t = e.target;
      if (t !== document && !(t instanceof Node && t.ownerDocument === document)) return;
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} (${e.sourceFile}:${e.lineNumber}) ${t instanceof Element ? t.outerHTML.slice(0, 160) : ''}`);
    });
  });
  const watch = (page: Page) =>
    page.on('console', (m) => {
      if (m.type() === 'error' && m.text().startsWith('CSP violation:')) throw new Error(`Content Security Policy violation on ${page.url()}: ${m.text()}`);
    });
  ctx.pages().forEach(watch);
  ctx.on('page', watch);
}

export async function startBrowser(): Promise<Browsing> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  return {
    browser,
    // Each context is a fresh profile: its own localStorage, cookies and cache.
    newContext: async ({ width = 1280, height = 860, apiKey, baseUrl, dark = false } = {}) => {
      const ctx = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme: dark ? 'dark' : 'light', baseURL: baseUrl });
      failOnCspViolations(ctx);
      if (apiKey) await ctx.addInitScript((k) => localStorage.getItem('rhizome.session') ?? localStorage.setItem('rhizome.session', JSON.stringify({ kind: 'apikey', key: k })), apiKey);
      return ctx;
    },
    close: () => browser.close(),
  };
}

/** Saves a full-page screenshot and checks it is a real, non-blank image of visible content. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const size = statSync(file).size;
  const text = (await page.evaluate(() => document.body.innerText)).trim();
  if (size < 5_000) throw new Error(`${name}.png is only ${size} bytes: the page looks blank`);
  const colours = distinctColours(readFileSync(file));
  if (colours < 8) throw new Error(`${name}.png has only ${colours} distinct colours: nothing visible was drawn`);
  if (text.length < 20) throw new Error(`${name}: the page shows almost no text (${JSON.stringify(text)})`);
  return file;
}

/** Distinct colours in a sample of the image's pixels: a blank page has one or two. */
export function distinctColours(png: Buffer): number {
  const img = PNG.sync.read(png);
  const seen = new Set<number>();
  const step = Math.max(1, Math.floor((img.width * img.height) / 50_000));
  for (let i = 0; i < img.width * img.height; i += step) seen.add(img.data.readUInt32BE(i * 4));
  return seen.size;
}

export interface Suite {
  readonly server: Server;
  readonly browser: Browsing;
  /** JSON request as the default tenant's API key. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** A fresh browser profile already signed in with the default tenant's API key. */
  signedInPage(opts?: { width?: number; height?: number; dark?: boolean }): Promise<Page>;
  /** A fresh browser profile, signed out. */
  anonymousPage(): Promise<Page>;
}

/** One server (on a free port) and one browser for a test file. */
export function e2eSuite(port = 0): Suite {
  let server: Server | undefined;
  let browser: Browsing | undefined;
  beforeAll(async () => {
    server = await startServer(port);
    browser = await startBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const failOnPageErrors = (page: Page) => {
    page.on('pageerror', (e) => {
      throw new Error(`uncaught error in the page: ${e.message}`);
    });
    return page;
  };
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    async api<T>(method: string, path: string, body?: unknown) {
      const res = await fetch(server!.url + '/api/v1' + path, {
        method,
        headers: { Authorization: `ApiKey ${server!.apiKey}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async signedInPage(opts = {}) {
      const ctx = await browser!.newContext({ ...opts, apiKey: server!.apiKey, baseUrl: server!.url });
      return failOnPageErrors(await ctx.newPage());
    },
    async anonymousPage() {
      const ctx = await browser!.newContext({ baseUrl: server!.url });
      return failOnPageErrors(await ctx.newPage());
    },
  };
}
