// The postgres-app project reruns the in-process suites on PostgreSQL only if makeTestApp
// really builds on PostgreSQL there: otherwise every file would pass on SQLite twice.
import { expect, it } from 'vitest';
import { PgStore } from '../../src/db/store/pg-store.js';
import { makeTestApp } from '../helpers/app.js';

it('builds the app on the engine its vitest project names', async ({ task }) => {
  const t = await makeTestApp();
  try {
    expect(t.s.db instanceof PgStore).toBe(task.file.projectName === 'postgres-app');
    expect((await t.req('POST', '/api/v1/nodes', { title: 'engine check' })).status).toBe(201);
  } finally {
    await t.close();
  }
});
