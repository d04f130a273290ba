// Where rate limits count: in this process's memory on SQLite (one process serves the
// file), or in PostgreSQL when several processes share it (rate-limiter-flexible's
// RateLimiterPostgres over the table of schema step 10), so a guesser spreading requests
// over the processes behind a proxy meets the same limit. If PostgreSQL is out of reach, each
// process counts in memory meanwhile (the library's insurance limiter).
import { pgModule } from '../db/pg/lazy-modules.js';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface Limiters {
  /** A limiter of `points` per `durationS` seconds; `name` keeps its keys apart from other limiters'. */
  create(name: string, points: number, durationS: number): RateLimiterAbstract;
  close(): Promise<void>;
}

export function memoryLimiters(): Limiters {
  return {
    create: (_name, points, duration) => new RateLimiterMemory({ points, duration }),
    close: async () => {},
  };
}

export const SHARED_LIMITS_TABLE = 'rate_limiter';

export function postgresLimiters(url: string): Limiters {
  const pool = new (pgModule().Pool)({ connectionString: url, max: 4, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 2_000 });
  pool.on('error', () => {}); // an idle client lost with the server: the next query reconnects
  return {
    create: (name, points, duration) =>
      new RateLimiterPostgres({
        storeClient: pool,
        tableName: SHARED_LIMITS_TABLE,
        tableCreated: true,
        keyPrefix: name,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ points, duration }),
      }),
    close: () => pool.end().catch(() => {}),
  };
}
