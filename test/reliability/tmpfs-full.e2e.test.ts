// The real thing: the data folder on an 8 MB tmpfs, filled to the last byte by a file.
// Writes answer 507, reads work, /health says degraded, and once the file is deleted
// writes succeed again with no restart. Needs root (mount); skipped with a message otherwise.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, type ChildServer } from '../helpers/server-process.js';

const isRoot = process.getuid?.() === 0;
let mounted = false;
if (!isRoot) console.warn('tmpfs disk-full test skipped: it needs root to mount a tmpfs (the fault-injection test covers the rest)');

describe.skipIf(!isRoot)('disk full on a real tmpfs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-tmpfs-'));
  let server: ChildServer;
  let auth: string;
  const filler = join(dir, 'filler');

  beforeAll(async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
      mounted = true;
    } catch (e) {
      console.warn(`tmpfs disk-full test skipped: mount failed (${(e as Error).message})`);
      return;
    }
    server = await startServer(dir);
    auth = `ApiKey ${credentials(dir).api_key}`;
  });
  afterAll(async () => {
    await server?.stop();
    if (mounted) execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (i: number) =>
    fetch(`${server.url}/api/v1/nodes`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `n${i}`, content: `${'x y z '.repeat(20_000)}${i}` }) });

  it('507 while full, reads and health keep answering, writes resume when space returns', async () => {
    if (!mounted) return;
    const first = await post(0);
    expect(first.status).toBe(201);
    const id = (await first.json()).id;
    // Fill the file system: write until ENOSPC.
    try {
      for (let i = 0; i < 64; i++) writeFileSync(filler, Buffer.alloc(256 * 1024, 1), { flag: 'a' });
    } catch {
      /* full */
    }
    const codes: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const res = await post(i);
      codes.push(res.status);
      if (res.status !== 201) {
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect((await res.json()).code).toBe('insufficient_storage');
      }
    }
    expect(codes).toContain(507);
    expect(codes.every((c) => c === 201 || c === 507)).toBe(true);
    expect((await fetch(`${server.url}/api/v1/nodes/${id}`, { headers: { Authorization: auth } })).status).toBe(200);
    const h = await (await fetch(`${server.url}/health`, { headers: { Authorization: auth } })).json();
    expect(h.status).toBe('degraded');

    rmSync(filler);
    const again = await post(100);
    expect(again.status).toBe(201);
    expect((await (await fetch(`${server.url}/health`)).json()).status).toBe('ok');
    expect(server.proc.exitCode).toBeNull();
    // The server did not log a stack trace per attempt.
    expect(server.stderr().split('\n').filter((l) => l.includes('ERROR')).length).toBeLessThan(10);
  }, 120_000);
});
