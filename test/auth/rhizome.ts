// An in-process Rhizome with identity-provider sign-in, served over real HTTP on a free
// loopback port (the provider redirects the browser to it), on a fresh SQLite database.
import { SqliteStore } from '../../src/db/store/sqlite-store.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { CustomFetch } from 'openid-client';
import { loadConfig } from '../../src/config.js';
import { buildContainer, type Container } from '../../src/container.js';
import { openDatabase } from '../../src/db/open.js';
import { HashEmbedder } from '../../src/embed/hash-embedder.js';
import { createApp } from '../../src/http/app.js';
import { webMount } from '../../src/http/web.js';
import { memoryLogger } from '../../src/logger.js';
import { wire } from '../../src/wiring.js';

export interface TestRhizome {
  url: string;
  s: Container;
  log: ReturnType<typeof memoryLogger>;
  /** Refresh tokens ever issued (a refused sign-in must not add any). */
  sessions(): number;
  stop(): Promise<void>;
}

export async function startRhizome(o: { port: number; env: Record<string, string>; oidcFetch?: CustomFetch }): Promise<TestRhizome> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-oidc-'));
  const url = `http://127.0.0.1:${o.port}`;
  const config = loadConfig({ RHIZOME_DATA_DIR: dataDir, RHIZOME_LOG: 'silent', RHIZOME_PUBLIC_URL: url, ...o.env });
  const db = openDatabase(':memory:');
  const log = memoryLogger();
  const s = wire(await buildContainer({ config, db: new SqliteStore(db), embedder: new HashEmbedder(), log, oidcFetch: o.oidcFetch }));
  const app = createApp(s, [webMount]);
  const server: ServerType = await new Promise((r) => {
    const srv = serve({ fetch: app.fetch, port: o.port, hostname: '127.0.0.1' }, () => r(srv));
  });
  return {
    url,
    s,
    log,
    sessions: () => (db.prepare('SELECT count(*) AS n FROM refresh_tokens').get() as { n: number }).n,
    stop: async () => {
      await new Promise((r) => server.close(r));
      await s.queue.stop();
      db.close();
    },
  };
}
