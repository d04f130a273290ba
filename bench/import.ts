// Import throughput through the HTTP app in-process on a file database: a generated
// 5,000-note vault with 15,000 wikilinks (zipped, as the dashboard and CLI send it) and a
// 10,000-bookmark Netscape file. Measures until each
// import run reports completed, i.e.
// every note or capture is stored and acknowledged; embeddings and page fetches follow in
// the background (the job queue is not started here).
import { mkdtempSync, rmSync } from 'node:fs';
import { SqliteStore } from '../src/db/store/sqlite-store.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { wire } from '../src/wiring.js';
import { closeDatabase, openDatabase } from '../src/db/open.js';
import { HashEmbedder } from '../src/embed/hash-embedder.js';
import { createApp } from '../src/http/app.js';
import { zipBuffer } from '../src/interop/export/zip-writer.js';

const enc = new TextEncoder();
const FOLDERS = ['Projects/Launch', 'Projects/Website', 'Areas/Health', 'Resources/Cooking', 'Journal', 'Inbox'];

function vault(notes: number, linksPerNote: number) {
  return Array.from({ length: notes }, (_, i) => {
    const links = Array.from({ length: linksPerNote }, (_, k) => `[[Note ${(i * 7 + k * 131 + 1) % notes}]]`).join(', ');
    const body = `---\ntags: [bench, t${i % 40}]\ncreated: 2024-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n# Note ${i}\n\n` +
      `Notes on topic ${i % 97} with #inline${i % 25}. See ${links}.\n\n- [ ] follow up\n- [x] drafted\n\n` +
      'Compost feeds the soil with organic matter that worms and microbes turn into humus. '.repeat(4);
    return { path: `${FOLDERS[i % FOLDERS.length]}/Note ${i}.md`, bytes: enc.encode(body) };
  });
}

function bookmarks(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => `<DT><A HREF="https://site${i % 300}.example/page/${i}" ADD_DATE="${1600000000 + i}" TAGS="bench,b${i % 20}">Page ${i}</A>\n<DD>Note ${i}`);
  return `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE><H1>Bookmarks</H1>\n<DL><p>\n<DT><H3>Reading</H3>\n<DL><p>\n${rows.join('\n')}\n</DL><p>\n</DL><p>\n`;
}

export async function benchImport(opts: { notes?: number; bookmarks?: number } = {}): Promise<object> {
  const notes = opts.notes ?? 5000;
  const marks = opts.bookmarks ?? 10_000;
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-bench-import-'));
  const config = loadConfig({ RHIZOME_DATA_DIR: dir, RHIZOME_LOG: 'silent' });
  const db = openDatabase(join(dir, 'rhizome.db'), { synchronous: config.synchronous });
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder: new HashEmbedder(384) }));
  try {
    await s.embedding.init();
    const { api_key: key } = await s.tenants.create('bench');
    const app = createApp(s);
    const post = async (path: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await app.request(path, { method: 'POST', headers: { Authorization: `ApiKey ${key}` }, body: form });
      if (res.status !== 202) throw new Error(`import failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    const files = vault(notes, 3);
    const zip = await zipBuffer(files);
    const t0 = performance.now();
    const vid = await post('/api/v1/imports/markdown', 'bench-vault.zip', zip, { para_from_folders: 'true' });
    const ackMs = performance.now() - t0;
    await s.imports.idle();
    const vaultSeconds = (performance.now() - t0) / 1000;
    const vrun = await s.imports.get((await s.tenants.findByName('bench'))!.id, vid);

    const html = enc.encode(bookmarks(marks));
    const t1 = performance.now();
    const bid = await post('/api/v1/imports/bookmarks', 'bookmarks.html', html);
    await s.imports.idle();
    const bookmarkSeconds = (performance.now() - t1) / 1000;
    const brun = await s.imports.get((await s.tenants.findByName('bench'))!.id, bid);
    return {
      bench: 'import',
      vault: {
        notes, wikilinks: notes * 3, zip_mb: Math.round((zip.length / 1048576) * 10) / 10, request_ack_ms: Math.round(ackMs),
        seconds: Math.round(vaultSeconds * 100) / 100, notes_per_second: Math.round(notes / vaultSeconds), status: vrun.status, counts: vrun.counts,
      },
      bookmarks: { count: marks, seconds: Math.round(bookmarkSeconds * 100) / 100, status: brun.status, counts: brun.counts },
    };
  } finally {
    await s.queue.stop();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
