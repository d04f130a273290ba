import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, credentials, startServer, tempDataDir } from '../helpers/server-process.js';


describe('the server process', () => {
  it('bootstraps once, keeps everything across restarts, and checkpoints on shutdown', async () => {
    const dir = tempDataDir();
    const s1 = await startServer(dir);
    const cred = credentials(dir);
    expect(s1.stdout()).toContain(cred.api_key);
    expect(statSync(join(dir, 'credentials')).mode & 0o777).toBe(0o600);
    const auth = { Authorization: `ApiKey ${cred.api_key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${s1.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'survives restarts' }) });
    expect(created.status).toBe(201);
    const node = await created.json();
    expect(await s1.stop()).toBe(0);
    // A clean shutdown folds the WAL back: rhizome.db alone holds everything.
    expect(statSync(join(dir, 'rhizome.db-wal'), { throwIfNoEntry: false })?.size ?? 0).toBe(0);

    const s2 = await startServer(dir);
    expect(s2.stdout()).not.toContain('Created tenant');
    // The node's vector was written before the clean shutdown; the search index is warmed at start.
    for (let i = 0; i < 100 && !s2.stderr().includes('semantic index ready'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(s2.stderr()).toContain('semantic index ready: 1 vector(s)');
    expect(credentials(dir).api_key).toBe(cred.api_key);
    const got = await fetch(`${s2.url}/api/v1/nodes/${node.id}`, { headers: auth });
    expect(got.status).toBe(200);
    await s2.stop();
    const db = new Database(join(dir, 'rhizome.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM tenants').pluck().get()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM api_keys').pluck().get()).toBe(1);
    db.close();
  });

  it('every acknowledged write survives kill -9 in the middle of a write burst', async () => {
    const dir = tempDataDir();
    const s1 = await startServer(dir);
    const auth = { Authorization: `ApiKey ${credentials(dir).api_key}`, 'Content-Type': 'application/json' };
    const acked: string[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await fetch(`${s1.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title: `w${w} note ${i}` }) });
          if (res.status === 201) acked.push((await res.json()).id);
        } catch {
          return; // the server died under us: this write was never acknowledged
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acked.length < 60) await new Promise((r) => setTimeout(r, 5));
    await s1.kill();
    killed = true;
    await Promise.all(writers);
    const s2 = await startServer(dir);
    for (const id of acked) expect((await fetch(`${s2.url}/api/v1/nodes/${id}`, { headers: auth })).status, id).toBe(200);
    await s2.stop();
  });

  it('accepts a 10,000-character query parameter of multi-byte text over a real socket', async () => {
    const dir = tempDataDir();
    const s = await startServer(dir);
    const auth = { Authorization: `ApiKey ${credentials(dir).api_key}` };
    const res = await fetch(`${s.url}/api/v1/links/suggestions?text=${encodeURIComponent('é'.repeat(10_000))}`, { headers: auth });
    expect(res.status).toBe(200);
    const long = await fetch(`${s.url}/api/v1/nodes?query=${encodeURIComponent('漢'.repeat(500))}`, { headers: auth });
    expect(long.status).toBe(200);
    await s.stop();
  });

  it('tenants create --json and users add act on the data folder; each tenant sees only its own data', async () => {
    const dir = tempDataDir();
    const env = { RHIZOME_DATA_DIR: dir };
    const s = await startServer(dir);
    const r = await cli(['tenants', 'create', 'work', '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['api_key', 'tenant_id']);
    expect((await cli(['tenants', 'create', 'work', '--json'], env)).code).toBe(2);
    const added = await cli(['users', 'add', 'ada@example.com', '--tenant', 'work'], env);
    expect(added.code).toBe(0);
    expect(added.stderr).toBe(''); // admin commands never touch the embedding model
    expect(r.stderr).toBe('');
    expect((await cli(['users', 'add', 'bob@example.com', '--tenant', 'nope'], env)).code).toBe(4);

    const mine = { Authorization: `ApiKey ${credentials(dir).api_key}`, 'Content-Type': 'application/json' };
    const theirs = { Authorization: `ApiKey ${out.api_key}`, 'Content-Type': 'application/json' };
    const n = await (await fetch(`${s.url}/api/v1/nodes`, { method: 'POST', headers: mine, body: JSON.stringify({ title: 'default only' }) })).json();
    expect((await fetch(`${s.url}/api/v1/nodes/${n.id}`, { headers: theirs })).status).toBe(404);
    await s.stop();
  });

  it('backup writes a consistent copy while the server runs and takes writes', async () => {
    const dir = tempDataDir();
    const s = await startServer(dir);
    const auth = { Authorization: `ApiKey ${credentials(dir).api_key}`, 'Content-Type': 'application/json' };
    for (let i = 0; i < 30; i++) await fetch(`${s.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title: `before ${i}` }) });
    let writing = true;
    const writer = (async () => {
      let i = 0;
      while (writing) await fetch(`${s.url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ title: `during ${i++}` }) });
    })();
    const file = join(tempDataDir(), 'backup.db');
    const r = await cli(['backup', file], { RHIZOME_DATA_DIR: dir });
    writing = false;
    await writer;
    expect(r.code).toBe(0);
    expect((await cli(['backup', file], { RHIZOME_DATA_DIR: dir })).code).toBe(2);
    await s.stop();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare("SELECT count(*) FROM nodes WHERE title LIKE 'before %'").pluck().get()).toBe(30);
    expect(db.prepare('SELECT count(*) FROM api_keys').pluck().get()).toBe(1);
    db.close();
  });
});
