// A by-hand check of the built extension in Firefox (not part of `npm test`: playwright-core
// cannot drive a stock Firefox and CI installs only Chromium). Needs Firefox (Debian:
// `apt-get install firefox-esr`) and puppeteer-core, which drives Firefox over WebDriver BiDi:
//
//   npm run build && npm run build:extension
//   npm install --no-save puppeteer-core@24 && node extension/check-firefox.mjs
//
// It starts a throwaway `rhizome serve`, installs dist/extension as a temporary add-on (with
// the test page's host granted, standing in for the toolbar click's activeTab), configures
// it on its options page, saves a localhost page from the popup and a link through the
// context-menu handler, and prints what the API recorded.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const UUID = '6f0c5d1e-8a4b-4c2d-9e3f-1a2b3c4d5e6f';
const base = `moz-extension://${UUID}`;
const firefox = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-ff-'));
const extDir = mkdtempSync(join(tmpdir(), 'rhizome-ff-ext-'));
const server = spawn(process.execPath, [join(ROOT, 'bin/rhizome.js'), 'serve'], {
  env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: '0', RHIZOME_HOST: '127.0.0.1' },
});
let log = '';
server.stdout.on('data', (d) => (log += d));
server.stderr.on('data', (d) => (log += d));
const pages = createServer((_q, r) => {
  r.setHeader('content-type', 'text/html');
  r.end('<title>Firefox page</title><script>addEventListener("DOMContentLoaded",()=>document.body.append("late text"))</script><p id=q>Firefox selection text here.</p>');
});
let browser;
let failed = false;
try {
  let url;
  for (let i = 0; i < 300 && !url; i++) {
    url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 100));
  }
  if (!url) throw new Error(`server did not start:\n${log}`);
  const key = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')).api_key;
  const api = async (path) => (await fetch(url + '/api/v1' + path, { headers: { Authorization: `ApiKey ${key}` } })).text();
  await new Promise((r) => pages.listen(0, '127.0.0.1', r));
  const pageUrl = `http://localhost:${pages.address().port}/ff.html`;

  cpSync(join(ROOT, 'dist/extension'), extDir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(extDir, 'manifest.json'), 'utf8'));
  manifest.host_permissions = ['http://localhost/*'];
  writeFileSync(join(extDir, 'manifest.json'), JSON.stringify(manifest));

  browser = await puppeteer.launch({
    browser: 'firefox', executablePath: firefox, headless: true, args: ['--remote-allow-system-access'],
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [manifest.browser_specific_settings.gecko.id]: UUID }) },
  });
  console.log('installed:', await browser.installExtension(extDir));
  // Extension pages never fire the load event BiDi waits for: open, then use the page.
  const open = async (u) => {
    const p = await browser.newPage();
    await p.goto(u, { timeout: 3000 }).catch(() => undefined);
    return p;
  };
  const opt = await open(base + '/options.html');
  await opt.waitForFunction(() => document.getElementById('server').value !== '');
  await opt.evaluate((u, k) => ((document.getElementById('server').value = u), (document.getElementById('key').value = k)), url, key);
  await opt.click('button[type=submit]');
  await opt.waitForFunction(() => /Saved/.test(document.getElementById('status').textContent));
  await opt.click('#check');
  await opt.waitForFunction(() => /works|err/.test(document.getElementById('status').textContent + document.getElementById('status').className));
  console.log('check connection:', await opt.$eval('#status', (e) => e.textContent));

  const page = await browser.newPage();
  await page.goto(pageUrl);
  await page.evaluate(() => {
    const r = document.createRange();
    r.selectNodeContents(document.getElementById('q'));
    getSelection().addRange(r);
  });
  const tabId = await opt.evaluate(async (u) => (await browser.tabs.query({})).find((t) => t.url === u)?.id, pageUrl);
  const pop = await open(`${base}/popup.html?tab=${tabId}`);
  await pop.waitForSelector('body[data-ready="true"]');
  await pop.type('#tags', 'firefox');
  await pop.click('#save');
  await pop.waitForSelector('body[data-done="true"]', { timeout: 90_000 });
  console.log('popup:', await pop.$eval('#status', (e) => e.textContent));
  const id = await pop.$eval('body', (b) => b.dataset.captureId);
  const cap = JSON.parse(await api(`/captures/${id}`));
  const raw = await api(`/captures/${id}/content`);
  const node = JSON.parse(await api(`/nodes/${cap.node_id}`));
  console.log('capture:', { status: cap.status, source: cap.source, selected_text: cap.selected_text, raw_has_late_text: raw.includes('late text'), raw_has_script: raw.includes('<script'), node_tags: node.tags });
  await pop.screenshot({ path: join(ROOT, 'test/artifacts/extension-popup-firefox.png') }).catch(() => undefined);

  const made = await opt.evaluate(async (pu) => {
    const bg = await browser.runtime.getBackgroundPage();
    return bg.rhizomeSaveFromMenu({ menuItemId: 'save-link', pageUrl: pu, linkUrl: 'https://github.com/example/rhizome-notes', linkText: 'Rhizome notes' });
  }, pageUrl);
  const link = JSON.parse(await api(`/captures/${made.id}`));
  console.log('context menu, save link:', { source: link.source, content_type: link.content_type, title: link.title, url: link.url });
} catch (e) {
  failed = true;
  console.error('FAILED:', e);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  pages.close();
  await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r()));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(extDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
