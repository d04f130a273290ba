// The `rhizome` CLI end to end against a real server in a child process: what a person
// sees (tables, messages), what a script sees (--json), and exit codes.
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freePort, runCli, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
let env: Record<string, string>;
const cli = (args: string[], input?: string, extra?: Record<string, string>) => runCli(args, extra ? srv.env(extra) : env, input);
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at /);

beforeAll(async () => {
  srv = await startChildServer();
  env = srv.env();
});
afterAll(() => srv?.stop());

describe('rhizome CLI', { timeout: 180_000 }, () => {
  it('--help lists every command, and each group lists its subcommands', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    for (const cmd of ['serve', 'login', 'logout', 'search', 'node', 'link', 'unlink', 'related', 'suggest', 'capture', 'captures', 'para', 'context', 'health', 'keys', 'mcp']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    }
    const node = await cli(['node', '--help']);
    for (const sub of ['add', 'show', 'edit', 'rm']) expect(node.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    const captures = await cli(['captures', '--help']);
    for (const sub of ['list', 'show', 'retry', 'reingest', 'archive', 'unarchive', 'dismiss', 'rm', 'activity', 'provenance', 'content', 'check']) {
      expect(captures.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    }
    const para = await cli(['para', '--help']);
    for (const sub of ['tree', 'list', 'add', 'archive', 'unarchive', 'complete', 'undo-complete', 'rescan']) expect(para.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    const search = await cli(['search', '--help']);
    expect(search.stdout).toMatch(/--mode/);
    expect(search.stdout).toMatch(/--json/);
  });

  it('health works with no set-up (the local server\'s credentials file)', async () => {
    const r = await cli(['health']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${srv.url} — ok`);
    expect(r.stdout).toMatch(/nodes:\s+0/);
    const j = JSON.parse((await cli(['health', '--json'])).stdout);
    expect(j.server.status).toBe('ok');
    expect(j.graph).toMatchObject({ total_nodes: expect.any(Number), total_links: expect.any(Number) });
  });

  it('node add/show/edit/rm, search as a table and as JSON', async () => {
    const add = await cli(['node', 'add', 'Sourdough starter care', '-c', 'Feed the starter flour and water every day.', '-t', 'baking,bread', '--json']);
    expect(add.code).toBe(0);
    const n = JSON.parse(add.stdout);
    expect(n).toMatchObject({ title: 'Sourdough starter care', tags: ['baking', 'bread'], status: 'raw' });

    const fromStdin = await cli(['node', 'add', 'Rye bread', '-f', '-'], '# Rye\nDense and sour.');
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toMatch(/^Created node nod_\w+: Rye bread/);

    const show = await cli(['node', 'show', n.id]);
    expect(show.stdout).toMatch(/title:\s+Sourdough starter care/);
    expect(show.stdout).toMatch(/Feed the starter flour/);

    const edit = await cli(['node', 'edit', n.id, '--status', 'validated', '--tags', 'baking']);
    expect(edit.code).toBe(0);
    expect(edit.stdout).toMatch(/Updated node .*: tags, status/);

    const table = await cli(['search', 'sourdough', '--mode', 'keyword']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TITLE\s+STATUS\s+TAGS/);
    expect(table.stdout).toMatch(/Sourdough starter care\s+validated\s+baking/);
    expect(table.stdout).toMatch(/\[Sourdough\] starter care/); // the snippet marks where the words matched
    expect(table.stderr).toMatch(/1 result\(s\), page 1\/1/);
    const nothing = await cli(['search', 'quantum', 'chromodynamics', 'gluon']);
    expect(nothing.stdout).toMatch(/No notes match/);

    const json = JSON.parse((await cli(['search', 'sourdough', '--json'])).stdout);
    expect(json.data[0]).toMatchObject({ id: n.id, match_provenance: { keyword: true } });
    const filtered = JSON.parse((await cli(['search', '--status', 'validated', '--json'])).stdout);
    expect(filtered.data.map((x: { id: string }) => x.id)).toEqual([n.id]);

    const rm = await cli(['node', 'rm', n.id]);
    expect(rm.code).toBe(0);
    const gone = await cli(['node', 'show', n.id]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toMatch(/^rhizome: Node not found \[404 not_found\]/);
  });

  it('bad input: usage errors exit 2 with the reason and no stack trace', async () => {
    const badMode = await cli(['search', 'x', '--mode', 'fuzzy']);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toMatch(/--mode must be one of: keyword, semantic, hybrid/);
    const emptyTitle = await cli(['node', 'add', '']);
    expect(emptyTitle.code).toBe(2);
    expect(emptyTitle.stderr).toMatch(/title: .*\[400 validation_failed\]/);
    const unknownCmd = await cli(['nodez']);
    expect(unknownCmd.code).toBe(2);
    // With no options `node edit` opens $EDITOR on the node: an unknown node is a 404 first.
    const nothing = await cli(['node', 'edit', 'nod_x'], undefined, { EDITOR: 'true' });
    expect(nothing.code).toBe(4);
    for (const r of [badMode, emptyTitle, unknownCmd, nothing]) noStack(r.stderr);
  });

  it('link, related and unlink', async () => {
    const a = JSON.parse((await cli(['node', 'add', 'Claim A', '--json'])).stdout).id;
    const b = JSON.parse((await cli(['node', 'add', 'Evidence B', '--json'])).stdout).id;
    const c = JSON.parse((await cli(['node', 'add', 'Note C', '--json'])).stdout).id;
    expect((await cli(['link', b, a, '--type', 'supports'])).code).toBe(0);
    expect((await cli(['link', b, c])).code).toBe(0); // keeps the first link
    const rel = JSON.parse((await cli(['related', b, '--json'])).stdout).nodes;
    expect(rel.map((x: { id: string; relationship_type: string }) => `${x.id}:${x.relationship_type}`).sort()).toEqual([`${a}:supports`, `${c}:related`].sort());
    const back = await cli(['related', a]);
    expect(back.stdout).toMatch(new RegExp(`supported_by\\s+${b}\\s+Evidence B`));
    expect((await cli(['unlink', b, a])).stdout).toMatch(/1 link\(s\) left/);
    expect((await cli(['related', a])).stdout).toMatch(/has no links/);
    const badType = await cli(['link', a, c, '--type', 'likes']);
    expect(badType.code).toBe(2);
    const missing = await cli(['link', a, 'nod_missing']);
    expect(missing.code).toBe(2);
    noStack(missing.stderr);
  });

  it('para add/tree/archive/complete/rescan with conflict exit codes', async () => {
    const add = await cli(['para', 'add', 'project', 'Bake bread', '-d', 'everything about baking bread', '--json']);
    expect(add.code).toBe(0);
    const project = JSON.parse(add.stdout);
    expect(project).toMatchObject({ category: 'projects', slug: 'bake-bread', status: 'active' });
    const area = JSON.parse((await cli(['para', 'add', 'areas', 'Health', '--json'])).stdout);

    const tree = await cli(['para', 'tree']);
    expect(tree.stdout).toMatch(/^Projects \(1\)\n {2}Bake bread {2}\[par_\w+\] {2}\d+ node\(s\)/m);
    expect(tree.stdout).toMatch(/^Areas \(1\)/m);

    expect((await cli(['para', 'complete', project.id])).stdout).toMatch(/status completed/);
    const notProject = await cli(['para', 'complete', area.id]);
    expect(notProject.code).toBe(5);
    expect(notProject.stderr).toMatch(/\[409 conflict\]/);
    expect((await cli(['para', 'archive', area.id, '--json'])).code).toBe(0);
    expect(JSON.parse((await cli(['para', 'tree', '--json'])).stdout).areas).toEqual([]);
    expect((await cli(['para', 'unarchive', area.id])).code).toBe(0);

    const first = await cli(['para', 'rescan']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Queued \d+ orphan node\(s\)/);
    const second = await cli(['para', 'rescan']);
    expect(second.code).toBe(5);
    expect(second.stderr).toMatch(/\[429 rate_limited\]/);
  });

  it('context and suggest', async () => {
    await cli(['node', 'add', 'Kneading dough', '-c', 'Knead the bread dough for ten minutes.']);
    const ctx = await cli(['context', 'kneading', 'dough']);
    expect(ctx.code).toBe(0);
    expect(ctx.stdout).toMatch(/^1\. Kneading dough \[nod_\w+\] \d{4}-\d{2}-\d{2} {2}score \d\.\d{3} {2}\(.*keyword_match/m);
    expect(ctx.stdout).toMatch(/^ {3}> Knead the bread dough for ten minutes\.$/m);
    const sug = JSON.parse((await cli(['suggest', '--json', 'how long to knead dough'])).stdout);
    expect(sug.suggestions.some((s: { title: string }) => s.title === 'Kneading dough')).toBe(true);
  });

  it('keys create/list/revoke; a revoked RHIZOME_TOKEN exits 3', async () => {
    const created = JSON.parse((await cli(['keys', 'create', 'script', '--json'])).stdout);
    expect(created.key).toMatch(/^key_\w+\.\S+$/);
    const viaToken = await cli(['keys', 'list'], undefined, { RHIZOME_TOKEN: created.key });
    expect(viaToken.code).toBe(0);
    expect(viaToken.stdout).toMatch(/^ID\s+NAME\s+CREATED_AT\s+LAST_USED_AT/);
    expect(viaToken.stdout).toMatch(/script/);
    expect((await cli(['keys', 'revoke', created.id])).code).toBe(0);
    const revoked = await cli(['health'], undefined, { RHIZOME_TOKEN: created.key });
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toMatch(/\[401 unauthorized\]/);
    noStack(revoked.stderr);
  });

  it('no credentials exits 3; an unreachable server exits 6', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'rhizome-none-'));
    const none = await cli(['search'], undefined, { RHIZOME_DATA_DIR: empty });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no credentials .*rhizome login/);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await cli(['search'], undefined, { RHIZOME_API_URL: closed });
    expect(down.code).toBe(6);
    expect(down.stderr).toContain(`cannot reach the Rhizome server at ${closed}`);
    noStack(down.stderr);
    const badUrl = await cli(['search'], undefined, { RHIZOME_API_URL: 'not a url' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/RHIZOME_API_URL: Invalid URL/);
  });

  it('login by magic link stores a 0600 session that the next commands use', async () => {
    const added = await cli(['users', 'add', 'ada@example.com', '--tenant', 'default']);
    expect(added.code).toBe(0);
    const cfg = mkdtempSync(join(tmpdir(), 'rhizome-login-'));
    const loginEnv = srv.env({ RHIZOME_DATA_DIR: mkdtempSync(join(tmpdir(), 'rhizome-nocreds-')), RHIZOME_CONFIG_DIR: cfg });
    const child = spawn(process.execPath, [BIN, 'login'], { env: loginEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
      if (!cond()) throw new Error(`timed out; stderr: ${err}`);
    };
    await until(() => err.includes('Email: '));
    child.stdin.write('ada@example.com\n');
    await until(() => err.includes('Token from the link: ') && /paste this token into `rhizome login`: \S+/.test(srv.log()));
    const token = [...srv.log().matchAll(/paste this token into `rhizome login`: (\S+)/g)].pop()![1];
    child.stdin.end(`${token}\n`);
    const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
    expect(code).toBe(0);
    expect(out).toContain(`Signed in to ${srv.url}`);
    expect(statSync(join(cfg, 'session.json')).mode & 0o777).toBe(0o600);

    const viaSession = await runCli(['keys', 'list', '--json'], loginEnv);
    expect(viaSession.code).toBe(0);
    expect(JSON.parse(viaSession.stdout).length).toBeGreaterThan(0);
    expect((await runCli(['logout'], loginEnv)).stdout).toMatch(/Signed out/);
    expect((await runCli(['keys', 'list'], loginEnv)).code).toBe(3);
  });
});
