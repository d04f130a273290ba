// The README's screenshot: a real server on a temporary data folder with a few linked notes,
// the dashboard's search page in Debian's Chromium (playwright-core), saved as a PNG.
//   npm run build && node scripts/readme-screenshot.mjs [docs/readme-dashboard.png]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const out = process.argv[2] ?? 'docs/readme-dashboard.png';
const data = mkdtempSync(join(tmpdir(), 'rhizome-shot-'));
const proc = spawn(process.execPath, ['bin/rhizome.js', 'serve', '--port', '0'], {
  env: { ...process.env, RHIZOME_DATA_DIR: data, RHIZOME_CONFIG_DIR: join(data, 'config') }, stdio: ['ignore', 'pipe', 'pipe'],
});
let err = '';
proc.stderr.on('data', (d) => (err += d));
const url = await new Promise((done, fail) => {
  const t = setInterval(() => {
    const m = /listening on (http:\/\/\S+)/.exec(err);
    if (m) { clearInterval(t); done(m[1]); }
    if (proc.exitCode !== null) { clearInterval(t); fail(new Error(err)); }
  }, 100);
});
const { api_key: key } = JSON.parse(readFileSync(join(data, 'credentials'), 'utf8'));
const api = async (method, path, body) => {
  const r = await fetch(`${url}/api/v1${path}`, { method, headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json();
};
const area = await api('POST', '/para', { category: 'areas', label: 'Health' });
const project = await api('POST', '/para', { category: 'projects', label: 'Spring marathon' });
const notes = [
  ['Zone 2 training', 'Easy runs at conversational pace build the aerobic base; most weekly mileage belongs here.', ['running', 'training'], [area.id]],
  ['Long run fuelling', 'Take 30–60 g of carbohydrate per hour on runs longer than 90 minutes.', ['running', 'nutrition'], [project.id]],
  ['Tempo runs', 'Twenty minutes at a comfortably hard pace, once a week, raise the lactate threshold.', ['running', 'training'], [project.id]],
  ['Sleep and recovery', 'Eight hours of sleep does more for recovery than any supplement.', ['sleep', 'recovery'], [area.id]],
  ['Marathon taper', 'Cut volume by a third three weeks out, keep some intensity.', ['running'], [project.id]],
  ['Heart-rate zones', 'Zones from lactate threshold heart rate rather than 220 minus age.', ['training'], []],
];
const ids = [];
for (const [title, content, tags, para_item_ids] of notes) ids.push((await api('POST', '/nodes', { title, content, tags, para_item_ids, status: 'validated' })).id);
await api('PATCH', `/nodes/${ids[0]}/links`, { links: [{ target_id: ids[5], type: 'related' }, { target_id: ids[2], type: 'supports' }] });
await api('PATCH', `/nodes/${ids[1]}/links`, { links: [{ target_id: ids[4], type: 'part_of' }] });
for (let i = 0; i < 100; i++) {
  const h = await (await fetch(`${url}/health`, { headers: { Authorization: `ApiKey ${key}` } })).json();
  if (!h.queue?.depth && !h.jobs?.queued) break;
  await new Promise((r) => setTimeout(r, 200));
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1, colorScheme: 'light' });
  await ctx.addInitScript((k) => localStorage.setItem('rhizome.session', JSON.stringify({ kind: 'apikey', key: k })), key);
  const page = await ctx.newPage();
  await page.goto(`${url}/#/search?q=${encodeURIComponent('marathon training')}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out, type: 'png' });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  rmSync(data, { recursive: true, force: true });
}
