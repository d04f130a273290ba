// The authorization-server step of the schema: a database from before it gains the client,
// request and code tables, and its existing sessions keep working (their client_id is null:
// Rhizome's own sign-ins, which the OAuth token endpoint does not rotate).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.js';
import { makeTestApp } from '../helpers/app.js';

const OAUTH_STEP = 6;

describe('schema step: OAuth authorization server', () => {
  it('upgrades a database made before it; a session from then still refreshes', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rz-oauth-mig-')), 'rhizome.db');
    const before = await makeTestApp({ dbPath: file });
    await before.s.auth.addUser('ada@example.com', 'alpha');
    const pair = await before.s.auth.startSession(before.tenantId, (await before.s.repos.users.findByEmail('ada@example.com'))!.id);
    await before.close();

    // Roll the file back to the step before (step 6 is the OAuth server; later steps go too),
    // as an older Rhizome left it.
    const raw = new Database(file);
    raw.exec('DROP TABLE graph_health_daily; DROP TABLE oauth_codes; DROP TABLE oauth_requests; DROP TABLE oauth_clients; ALTER TABLE refresh_tokens DROP COLUMN client_id;');
    raw.pragma(`user_version = ${OAUTH_STEP - 1}`);
    migrate(raw);
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'oauth_%' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'oauth_clients' }, { name: 'oauth_codes' }, { name: 'oauth_requests' }]);
    expect(raw.prepare('SELECT client_id FROM refresh_tokens').all()).toEqual([{ client_id: null }]);
    raw.close();

    const after = await makeTestApp({ dbPath: file });
    const res = await after.req('POST', '/api/v1/auth/refresh', { refresh_token: pair.refresh_token }, null);
    expect(res.status).toBe(200);
    await after.close();
  });
});
