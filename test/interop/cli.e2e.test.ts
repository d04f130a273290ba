// `rhizome import` and `rhizome export` against a real server in a child process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startChildServer, type ChildServer } from '../clients/server.js';

let srv: ChildServer;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'rhizome-interop-cli-'));
const cli = (args: string[]) => runCli(args, env, undefined, work);

beforeAll(async () => {
  srv = await startChildServer();
  env = srv.env();
});
afterAll(async () => { await srv?.stop(); });

describe('rhizome import / export', { timeout: 180_000 }, () => {
  it('imports a vault folder with PARA folders, then exports it as Markdown and JSON', async () => {
    const vault = join(work, 'My Vault');
    mkdirSync(join(vault, 'Projects/Launch'), { recursive: true });
    mkdirSync(join(vault, 'Journal'), { recursive: true });
    writeFileSync(join(vault, 'Projects/Launch/Plan.md'), '---\ntags: [plan]\nstatus: validated\n---\n# Plan\n\n- [ ] budget, see [[Budget]]\n');
    writeFileSync(join(vault, 'Projects/Launch/Budget.md'), '# Budget\n\n#money matters. [[Nowhere]]\n');
    writeFileSync(join(vault, 'Journal/Monday.md'), 'A day.');
    symlinkSync(join(vault, 'Journal'), join(vault, 'Journal/again'));

    const r = await cli(['import', 'markdown', vault, '--para-from-folders']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/created 3, updated 0, skipped 0, failed 0, unresolved links 1/);
    expect(r.stdout).toMatch(/Journal\/again: symbolic link back into one of its own parent folders/);
    expect(r.stderr).not.toMatch(/Importing \[/); // progress bars are drawn only on a terminal

    const again = await cli(['import', 'markdown', vault, '--para-from-folders', '--json']);
    expect(JSON.parse(again.stdout).counts).toMatchObject({ created: 0, skipped: 3 });

    const out = join(work, 'export');
    const e = await cli(['export', 'markdown', out]);
    expect(e.code, e.stderr).toBe(0);
    expect(existsSync(join(out, 'Projects/Launch/Plan.md'))).toBe(true);
    expect(readFileSync(join(out, 'Projects/Launch/Plan.md'), 'utf8')).toMatch(/^---\nid: nod_[^\n]+\ntitle: Plan\n[\s\S]*status: validated[\s\S]*- references \[\[Budget\]\]/);
    // An orphan lands in Inbox/, unless background classification filed it under Launch meanwhile.
    expect(existsSync(join(out, 'Inbox/Monday.md')) || existsSync(join(out, 'Projects/Launch/Monday.md'))).toBe(true);

    const j = await cli(['export', 'json', join(work, 'all.json')]);
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(work, 'all.json'), 'utf8'));
    expect(doc).toMatchObject({ format: 'rhizome-export', version: 1, counts: { nodes: 3, links: 2, para_items: 1 } });
  });

  it('imports bookmarks and names the formats it understands when the file is none of them', async () => {
    const r = await cli(['import', 'bookmarks', join(ROOT, 'test/fixtures/interop/pocket-export.csv')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Recognised: pocket/);
    expect(r.stdout).toMatch(/created 3/);
    // `rhizome capture --urls` takes a bookmark export as a list of URLs too.
    writeFileSync(join(work, 'bm.html'), '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="http://127.0.0.1:9/a" ADD_DATE="1">A</A>\n<DT><A HREF="http://127.0.0.1:9/b">B</A>\n</DL><p>\n');
    const cap = await cli(['capture', '--urls', join(work, 'bm.html'), '--json']);
    expect(cap.code, cap.stderr).toBe(0);
    expect(JSON.parse(cap.stdout).map((x: { target: string }) => x.target)).toEqual(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);
    writeFileSync(join(work, 'notes.txt'), 'not bookmarks at all');
    const bad = await cli(['import', 'bookmarks', join(work, 'notes.txt')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Netscape bookmark HTML.*Pocket CSV.*Omnivore.*Karakeep.*Linkwarden/);
  });
});
