// node-postgres and synckit, loaded on first use: a SQLite install never pays for them when
// it starts (they were ~40 ms of the time to /health). Both are CommonJS, so a synchronous
// require serves the synchronous callers.
import { createRequire } from 'node:module';
import type pgTypes from 'pg';
import type * as synckitTypes from 'synckit';

const require = createRequire(import.meta.url);
let pg: typeof pgTypes | undefined;
let synckit: typeof synckitTypes | undefined;

export const pgModule = (): typeof pgTypes => (pg ??= require('pg') as typeof pgTypes);
export const synckitModule = (): typeof synckitTypes => (synckit ??= require('synckit') as typeof synckitTypes);
