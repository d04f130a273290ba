// Connecting to PostgreSQL with node-postgres: integers come back as numbers (epoch ms and
// seqs fit in 2^53), and a connection failure is one line naming the server, never the password.
import type pg from 'pg';
import { pgModule } from './lazy-modules.js';

/** int8 → number when it is exact, bigint otherwise; numeric stays text. */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') {
      return (v: string) => {
        const n = Number(v);
        return Number.isSafeInteger(n) ? n : BigInt(v);
      };
    }
    return pgModule().types.getTypeParser(oid, format as 'text');
  },
};

export class PgUnreachableError extends Error {}

export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/** The URL with any password masked, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the given PostgreSQL URL';
  }
}

function reason(e: unknown): string {
  const err = e as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = err.code ?? err.errors?.[0]?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === '3D000') return 'database does not exist';
  if (code === '28P01' || code === '28000') return 'authentication failed';
  return (err.message ?? String(e)).split('\n')[0];
}

/** A connected client, or a PgUnreachableError with one line that says why. */
export async function connectPg(url: string, opts: { connectTimeoutMs?: number } = {}): Promise<pg.Client> {
  const client = new (pgModule().Client)({ connectionString: url, types: pgTypes, connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000 });
  // An error event after connecting (server shut down) must not crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw new PgUnreachableError(`cannot reach PostgreSQL at ${describeUrl(url)}: ${reason(e)}`);
  }
  return client;
}

export type PgClient = pg.Client;
