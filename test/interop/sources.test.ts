import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDirectoryTree } from '../../src/interop/sources/directory.js';
import { readZip } from '../../src/interop/sources/zip.js';
import { rawZip } from './zip-bytes.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rhizome-interop-'));
  dirs.push(d);
  return d;
}
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('folder input', () => {
  it('reads the tree with vault-relative paths', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'Projects/Site'), { recursive: true });
    writeFileSync(join(root, 'a.md'), '# A');
    writeFileSync(join(root, 'Projects/Site/b.md'), '# B');
    const r = await readDirectoryTree(root);
    expect(r.files.map((f) => [f.path, text(f.bytes)])).toEqual([['Projects/Site/b.md', '# B'], ['a.md', '# A']]);
    expect(r.problems).toEqual([]);
  });

  it('reports symlink loops and follows other links once', async () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(join(root, 'inner/deeper'), { recursive: true });
    writeFileSync(join(root, 'inner/n.md'), 'x');
    writeFileSync(join(outside, 'shared.md'), 'shared');
    symlinkSync(join(root, 'inner'), join(root, 'inner/deeper/back'));
    symlinkSync(join(root, 'self'), join(root, 'self'));
    symlinkSync(outside, join(root, 'linked'));
    const r = await readDirectoryTree(root);
    expect(r.files.map((f) => f.path).sort()).toEqual(['inner/n.md', 'linked/shared.md']);
    expect(r.problems.map((p) => [p.path, p.kind])).toEqual(expect.arrayContaining([['inner/deeper/back', 'symlink_loop'], ['self', 'symlink_loop']]));
  });

  it('reports files over the size limit without reading them', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'big.pdf'), '');
    truncateSync(join(root, 'big.pdf'), 26 * 1024 * 1024);
    writeFileSync(join(root, 'ok.md'), 'ok');
    const r = await readDirectoryTree(root);
    expect(r.files.map((f) => f.path)).toEqual(['ok.md']);
    expect(r.problems).toEqual([{ path: 'big.pdf', kind: 'too_large', detail: expect.stringContaining('over the 25.0 MB limit') }]);
  });
});

describe('zip input', () => {
  it('reads entries with their paths', async () => {
    const r = await readZip(rawZip([{ name: 'vault/a.md', data: '# A' }, { name: 'vault/', data: '' }, { name: 'b.md', data: 'B' }]));
    expect(r.files.map((f) => [f.path, text(f.bytes)])).toEqual([['vault/a.md', '# A'], ['b.md', 'B']]);
    expect(r.problems).toEqual([]);
  });

  it('skips and reports entries with .. or absolute paths', async () => {
    const r = await readZip(rawZip([
      { name: '../evil.md', data: 'x' }, { name: 'a/../../evil2.md', data: 'x' }, { name: '/etc/passwd', data: 'x' },
      { name: 'C:/win.md', data: 'x' }, { name: 'good.md', data: 'fine' },
    ]));
    expect(r.files.map((f) => f.path)).toEqual(['good.md']);
    expect(r.problems.map((p) => [p.path, p.kind])).toEqual([
      ['../evil.md', 'unsafe_path'], ['a/../../evil2.md', 'unsafe_path'], ['/etc/passwd', 'unsafe_path'], ['C:/win.md', 'unsafe_path'],
    ]);
  });

  it('refuses a zip bomb before expanding anything', async () => {
    const zeros = new Uint8Array(1024 * 1024);
    const entries = Array.from({ length: 20 }, (_, i) => ({ name: `z${i}.md`, data: zeros, declaredSize: 30 * 1024 * 1024 }));
    const r = await readZip(rawZip(entries));
    expect(r.files).toEqual([]);
    expect(r.problems).toEqual([{ path: '', kind: 'zip_bomb', detail: expect.stringContaining('nothing expanded') }]);
  });

  it('does not expand an entry that claims to be small but is not', async () => {
    const r = await readZip(rawZip([{ name: 'liar.md', data: new Uint8Array(2 * 1024 * 1024), declaredSize: 10 }, { name: 'ok.md', data: 'ok' }]));
    expect(r.files.map((f) => f.path)).toEqual(['ok.md']);
    expect(r.problems).toEqual([{ path: 'liar.md', kind: 'unreadable', detail: expect.stringContaining('cannot expand') }]);
  });

  it('reports entries over the per-file limit and caps the total with options', async () => {
    const big = await readZip(rawZip([{ name: 'big.bin', data: new Uint8Array(2000) }, { name: 'a.md', data: 'a' }]), { maxFileBytes: 1000 });
    expect(big.files.map((f) => f.path)).toEqual(['a.md']);
    expect(big.problems[0]).toMatchObject({ path: 'big.bin', kind: 'too_large' });
    const total = await readZip(rawZip([{ name: 'a.md', data: new Uint8Array(600) }, { name: 'b.md', data: new Uint8Array(600) }]), { maxTotalBytes: 1000 });
    expect(total.problems[0].kind).toBe('zip_bomb');
  });

  it('reports bytes that are not a zip', async () => {
    const r = await readZip(new TextEncoder().encode('just text'));
    expect(r.problems[0]).toMatchObject({ kind: 'unreadable', detail: expect.stringContaining('not a readable zip') });
  });
});
