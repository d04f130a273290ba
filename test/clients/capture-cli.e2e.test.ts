// `rhizome capture` and `rhizome captures` end to end: notes from stdin, file uploads,
// a folder in bulk (progress bar on stderr, partial failure exit code), a list of URLs
// served by a local page server, --wait, and the capture lifecycle commands.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startChildServer, type ChildServer } from './server.js';

let PAGES = '';
let srv: ChildServer;
let pages: Server;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'rhizome-capture-'));
const cli = (args: string[], input?: string) => runCli(args, env, input, work);

const page = (title: string, text: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${text.repeat(6)}</p></article></body></html>`;

beforeAll(async () => {
  pages = createServer((req, res) => {
    const body = req.url === '/bread.html' ? page('Bread at home', 'Mix flour, water, salt and yeast; knead and bake. ')
      : req.url === '/tea.html' ? page('Green tea brewing', 'Brew green tea at eighty degrees for two minutes. ')
      : null;
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' }).end(body ?? 'not here');
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
  PAGES = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
  srv = await startChildServer(0, { RHIZOME_ALLOW_PRIVATE_FETCH: '1' });
  env = srv.env();
});
afterAll(async () => {
  await srv?.stop();
  await new Promise((r) => pages?.close(r));
});

describe('rhizome capture', { timeout: 180_000 }, () => {
  it('a note from stdin, waited for, becomes a node', async () => {
    const r = await cli(['capture', '-', '--wait', '--json', '--why', 'keep the schedule'], '# Starter feeding\nFeed the sourdough starter at 8am and 8pm.\n');
    expect(r.code).toBe(0);
    const cap = JSON.parse(r.stdout);
    expect(cap).toMatchObject({ status: 'completed', title: 'Starter feeding', content_type: 'note', source: 'cli', why: 'keep the schedule' });
    const node = JSON.parse((await cli(['node', 'show', cap.node_id, '--json'])).stdout);
    expect(node.body_markdown).toMatch(/Feed the sourdough starter/);
  });

  it('a file upload with a title override', async () => {
    writeFileSync(join(work, 'kneading.md'), '# Kneading\n\nKnead the dough for ten minutes until smooth.\n');
    const r = await cli(['capture', 'kneading.md', '--title', 'How to knead', '--wait']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cap_\w+\s+completed\s+node nod_\w+\s+kneading\.md$/m);
  });

  it('a folder in bulk: no progress bars into a pipe, one rejected file gives exit 2, the rest are captured', async () => {
    const dir = join(work, 'notes');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.md'), '# Oven\nPreheat the oven to 250 degrees.');
    writeFileSync(join(dir, 'b.txt'), 'Steam helps the crust.');
    writeFileSync(join(dir, 'c.md'), '# Cooling\nLet the loaf cool for an hour.');
    writeFileSync(join(dir, 'fake.pdf'), 'this is not a PDF at all');
    const r = await cli(['capture', dir, '--wait']);
    expect(r.code).toBe(2);
    // stderr is a pipe here: no progress bars, only the per-item lines and the summary.
    expect(r.stderr).not.toMatch(/Capturing\s+\[|Processing \[/);
    expect(r.stderr).toMatch(/failed\s+.*fake\.pdf: .*\[415 unsupported_media_type\]/);
    expect(r.stderr).toMatch(/3 captured, 1 rejected, 0 failed or unfinished/);
    expect(r.stdout.trim().split('\n').filter((l) => /completed/.test(l))).toHaveLength(3);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a list of URLs with --wait, then --skip-existing skips them', async () => {
    writeFileSync(join(work, 'urls.txt'), `# reading list\n${PAGES}/bread.html\n\n${PAGES}/tea.html\n`);
    const r = await cli(['capture', '--urls', 'urls.txt', '--wait', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(2);
    expect(out.every((x: { status: string; node_id: string }) => x.status === 'completed' && x.node_id)).toBe(true);
    const again = await cli(['capture', '--urls', 'urls.txt', '--skip-existing']);
    expect(again.code).toBe(0);
    expect(again.stdout.match(/skipped \(already captured\)/g)).toHaveLength(2);
    expect((await cli(['captures', 'check', `${PAGES}/tea.html`])).code).toBe(0);
    expect((await cli(['captures', 'check', `${PAGES}/coffee.html`])).code).toBe(4);
  });

  it('usage errors: nothing to capture, a missing file, a non-URL in the list', async () => {
    expect((await cli(['capture'])).code).toBe(2);
    const missing = await cli(['capture', 'no-such-file.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such-file\.md: no such file or folder/);
    writeFileSync(join(work, 'bad-urls.txt'), 'ftp://example.com/x\n');
    expect((await cli(['capture', '--urls', 'bad-urls.txt'])).code).toBe(2);
  });
});

describe('rhizome captures', { timeout: 180_000 }, () => {
  it('list, show, activity, provenance, content, archive/unarchive, dismiss, retry, reingest, rm', async () => {
    const list = await cli(['captures', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+TYPE\s+TITLE\s+NODE\s+CREATED/);
    const json = JSON.parse((await cli(['captures', '--json', '--status', 'completed'])).stdout);
    expect(json.total).toBeGreaterThanOrEqual(5);
    const bread = json.data.find((c: { url: string | null }) => c.url === `${PAGES}/bread.html`);
    expect(bread).toBeTruthy();

    const show = await cli(['captures', 'show', bread.id]);
    expect(show.stdout).toMatch(/status:\s+completed/);
    expect(show.stdout).toMatch(/metadata:/);

    const activity = await cli(['captures', 'activity', bread.id]);
    expect(activity.stdout).toMatch(/^AT\s+KIND\s+DETAIL/);
    expect(activity.stdout).toMatch(/created/);
    expect(activity.stdout).toMatch(/completed/);
    const prov = JSON.parse((await cli(['captures', 'provenance', bread.id, '--json'])).stdout);
    expect(prov.stages.map((s: { stage: string }) => s.stage)).toContain('fetch');
    const content = await cli(['captures', 'content', bread.id, '--markdown']);
    expect(content.stdout).toMatch(/knead and bake/);

    const retry = await cli(['captures', 'retry', bread.id]);
    expect(retry.code).toBe(5);
    expect(retry.stderr).toMatch(/\[409 conflict\]/);
    expect((await cli(['captures', 'archive', bread.id])).stdout).toMatch(/Archived .* \(status archived\)/);
    expect((await cli(['captures', 'unarchive', bread.id])).stdout).toMatch(/status completed/);
    expect((await cli(['captures', 'reingest', bread.id, '--json'])).code).toBe(0);
    expect((await cli(['captures', 'dismiss', bread.id])).code).toBe(0);
    expect((await cli(['captures', 'rm', bread.id])).stdout).toMatch(/^Deleted capture/);
    const gone = await cli(['captures', 'show', bread.id]);
    expect(gone.code).toBe(4);
  });
});
