// SQL as the repositories write it: Kysely's `sql` template, whose values become bound
// parameters (never text), compiled for the engine under it — `?` for SQLite, `$1`… for
// PostgreSQL — by Kysely's own query compilers. Kysely builds the queries; the stores run
// them (their statement caches, transactions and error handling stay Rhizome's). Where the
// engines' SQL differs, a repository writes both statements side by side on `db.engine`.
import {
  DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type CompiledQuery, type RawBuilder,
} from 'kysely';
import type { Engine } from './contract.js';

export { sql } from 'kysely';
export type Query<T = unknown> = RawBuilder<T>;

// biome-ignore lint/suspicious/noExplicitAny: compile-only instances: no table types are needed to compile raw SQL
type Compiler = Kysely<any>;

const compilers: Partial<Record<Engine, Compiler>> = {};

function compiler(engine: Engine): Compiler {
  return (compilers[engine] ??=
    engine === 'sqlite'
      ? new Kysely({ dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() } })
      : new Kysely({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() } }));
}

/** The statement text and its parameters for this engine (about 2 µs). */
export function compile(engine: Engine, q: Query): CompiledQuery {
  return q.compile(compiler(engine));
}
