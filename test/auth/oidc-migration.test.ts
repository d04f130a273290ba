// Step 2 of the schema adds the identity-provider tables to a database made by step 1.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../src/db/migrate.js';
import { schemaPath } from '../../src/paths.js';

describe('schema step 2 (identity-provider sign-in)', () => {
  it('upgrades a version-1 database and keeps its data', () => {
    const db = new Database(':memory:');
    db.exec(readFileSync(schemaPath(), 'utf8'));
    db.pragma('user_version = 1');
    db.prepare("INSERT INTO tenants (id, name, created_at) VALUES ('ten_1', 'home', '2026-01-01T00:00:00Z')").run();
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'oidc_%' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'oidc_flows' }, { name: 'oidc_handoffs' }]);
    expect(db.prepare('SELECT name FROM tenants').all()).toEqual([{ name: 'home' }]);
    db.close();
  });
});
