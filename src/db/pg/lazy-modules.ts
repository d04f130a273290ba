// node-postgres, loaded on first use: a SQLite install never pays for it when it starts
// (it was part of ~40 ms of the time to /health). It is CommonJS: a synchronous require.
import { createRequire } from 'node:module';
import type pgTypes from 'pg';

const require = createRequire(import.meta.url);
let pg: typeof pgTypes | undefined;

export const pgModule = (): typeof pgTypes => (pg ??= require('pg') as typeof pgTypes);
