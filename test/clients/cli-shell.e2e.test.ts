// The CLI in a real shell against a real server: a pipe closed early, a busy port,
// credentials found from another folder, $EDITOR editing, PARA items by slug or label,
// completion scripts, examples in every help, file modes, and errors that name the node.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
const cli = (args: string[], extra?: Record<string, string>, cwd?: string) => runCli(args, srv.env(extra), undefined, cwd);
const sh = (script: string, env: Record<string, string>) => spawnSync('/bin/sh', ['-c', script], { env, encoding: 'utf8', cwd: tmpdir() });
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at |Error:/);

beforeAll(async () => {
  srv = await startChildServer();
});
afterAll(() => srv?.stop());

describe('rhizome in a shell', { timeout: 180_000 }, () => {
  it('a reader that goes away early (| head -1) ends it quietly', () => {
    for (let i = 0; i < 3; i++) {
      const r = sh(`node "${BIN}" health | head -1; echo "status=\${PIPESTATUS:-done}"`, srv.env());
      expect(r.stdout).toMatch(/^server:/);
      expect(r.stderr).toBe('');
    }
    const big = sh(`node "${BIN}" completion bash | head -c 10 >/dev/null`, srv.env());
    expect(big.stderr).toBe('');
  });

  it('serve on a busy port says so in one line and creates nothing', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'rz-busy-')), 'data');
    const r = spawnSync(process.execPath, [BIN, 'serve', '--port', new URL(srv.url).port], { env: { ...srv.env(), RHIZOME_DATA_DIR: dir }, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^rhizome: port ${new URL(srv.url).port} on 127\\.0\\.0\\.1 is already in use`))]);
    expect(() => statSync(dir)).toThrow();
  });

  it('finds credentials from any folder: the data folder (its api_url), then the XDG config file; empty RHIZOME_TOKEN= is unset', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'rz-cwd-'));
    const env = srv.env();
    delete (env as Record<string, string>).RHIZOME_API_URL;
    const fromData = await runCli(['health', '--json'], { ...env, RHIZOME_TOKEN: '' }, undefined, elsewhere);
    expect(fromData.code).toBe(0);
    expect(JSON.parse(fromData.stdout).graph).toBeDefined();

    const cfg = mkdtempSync(join(tmpdir(), 'rz-xdg-'));
    writeFileSync(join(cfg, 'credentials'), JSON.stringify({ api_url: srv.url, api_key: srv.apiKey }), { mode: 0o600 });
    const emptyData = mkdtempSync(join(tmpdir(), 'rz-nodata-'));
    const fromXdg = await runCli(['tags', '--json'], { ...env, RHIZOME_DATA_DIR: emptyData, RHIZOME_CONFIG_DIR: cfg }, undefined, elsewhere);
    expect(fromXdg.code).toBe(0);
    const none = await runCli(['tags'], { ...env, RHIZOME_DATA_DIR: emptyData, RHIZOME_API_URL: srv.url }, undefined, elsewhere);
    expect(none.code).toBe(3);
    noStack(none.stderr);
  });

  it('node edit opens $EDITOR on Markdown with front matter and saves what changed', async () => {
    const n = JSON.parse((await cli(['node', 'add', 'Editable', '-c', 'old body', '-t', 'a', '--json'])).stdout);
    const editor = join(mkdtempSync(join(tmpdir(), 'rz-ed-')), 'ed.sh');
    writeFileSync(editor, `#!/bin/sh\nsed -i -e 's/^title: Editable$/title: Edited title/' -e 's/^old body$/new body/' -e 's/^  - a$/  - b/' "$1"\n`);
    chmodSync(editor, 0o755);
    const r = await cli(['node', 'edit', n.id], { EDITOR: editor });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Updated node .*: title, tags, content/);
    const after = JSON.parse((await cli(['node', 'show', n.id, '--json'])).stdout);
    expect(after).toMatchObject({ title: 'Edited title', tags: ['b'], body_markdown: 'new body' });
    const same = await cli(['node', 'edit', n.id], { EDITOR: 'true' });
    expect(same.stdout).toMatch(/No changes/);
  });

  it('PARA items by id, slug or label; node show prints labels; link errors name the node', async () => {
    const p = JSON.parse((await cli(['para', 'add', 'project', 'Build a Shed', '--json'])).stdout);
    expect((await cli(['para', 'show', 'build-a-shed', '--json'])).stdout).toContain(p.id);
    expect((await cli(['para', 'show', 'build a shed', '--json'])).stdout).toContain(p.id);
    const missing = await cli(['para', 'show', 'no such item']);
    expect(missing.code).toBe(4);
    const n = JSON.parse((await cli(['node', 'add', 'Roof', '--para', 'Build a Shed', '--json'])).stdout);
    expect(n.para_item_ids).toEqual([p.id]);
    expect((await cli(['node', 'show', n.id])).stdout).toMatch(new RegExp(`para:\\s+Build a Shed \\(project, ${p.id}\\)`));
    expect(JSON.parse((await cli(['search', '--para', 'build-a-shed', '--json'])).stdout).data.map((x: { id: string }) => x.id)).toEqual([n.id]);

    const bad = await cli(['link', n.id, 'nod_doesnotexist']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/nod_doesnotexist/);
    expect(bad.stderr).not.toMatch(/links\.\d+\.target_id/);
    noStack(bad.stderr);
  });

  it('uploads are recorded with source cli', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'rz-up-')), 'note.md');
    writeFileSync(f, '# Upload\nfrom the shell');
    const r = JSON.parse((await cli(['capture', f, '--json'])).stdout);
    expect(JSON.parse((await cli(['captures', 'show', r.id, '--json'])).stdout).source).toBe('cli');
  });

  it('completion scripts for bash, zsh and fish; examples in every command help', async () => {
    const bash = (await cli(['completion', 'bash'])).stdout;
    expect(bash).toMatch(/complete -o default -F _rhizome rhizome/);
    expect(execFileSync('bash', ['-c', `${bash}\nCOMP_WORDS=(rhizome ta); COMP_CWORD=1; _rhizome; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8' }).trim()).toBe('tags');
    expect((await cli(['completion', 'zsh'])).stdout).toMatch(/bashcompinit/);
    expect((await cli(['completion', 'fish'])).stdout).toMatch(/complete -c rhizome -n "__fish_seen_subcommand_from tags" -a rename/);
    expect((await cli(['completion', 'tcsh'])).code).toBe(2);

    const top = (await cli(['--help'])).stdout;
    const commands = [...top.split('Commands:')[1].matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
    for (const c of commands) {
      const help = (await cli([c, '--help'])).stdout;
      const subs = [...(help.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]).filter((s) => s !== 'help');
      if (!subs.length) expect(help, c).toMatch(/Examples:/);
      for (const s of subs) expect((await cli([c, s, '--help'])).stdout, `${c} ${s}`).toMatch(/Examples:/);
    }
  });

  it('the data folder is 0700, rhizome.db and backups 0600', async () => {
    expect(statSync(srv.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(srv.dataDir, 'rhizome.db')).mode & 0o777).toBe(0o600);
    for (const f of readdirSync(srv.dataDir).filter((x) => x.startsWith('rhizome.db-'))) expect(statSync(join(srv.dataDir, f)).mode & 0o777, f).toBe(0o600);
    const out = join(mkdtempSync(join(tmpdir(), 'rz-bk-')), 'copy.db');
    const r = await cli(['backup', out]);
    expect(r.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });
});

describe('--json on removing commands', { timeout: 60_000 }, () => {
  it('node rm and unlink print JSON for scripts', async () => {
    const a = JSON.parse((await cli(['node', 'add', 'J1', '--json'])).stdout).id;
    const b = JSON.parse((await cli(['node', 'add', 'J2', '--json'])).stdout).id;
    await cli(['link', a, b]);
    expect(JSON.parse((await cli(['unlink', a, b, '--json'])).stdout)).toEqual({ node_id: a, links: [] });
    expect(JSON.parse((await cli(['node', 'rm', b, '--json'])).stdout)).toEqual({ deleted: b });
  });
});
