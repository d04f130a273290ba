import { describe, expect, it } from 'vitest';
import { translateSql, UntranslatableSqlError } from '../helpers/sql-translate.js';

describe('SQLite SQL → PostgreSQL', () => {
  it('numbers positional parameters', () => {
    expect(translateSql('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toEqual({ sql: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)', params: { kind: 'positional', count: 3 } });
  });

  it('numbers named parameters once each, whatever their sigil', () => {
    expect(translateSql('UPDATE t SET a = @a, b = :b WHERE id = $id AND a <> @a')).toEqual({
      sql: 'UPDATE t SET a = $1, b = $2 WHERE id = $3 AND a <> $1',
      params: { kind: 'named', names: ['a', 'b', 'id'] },
    });
  });

  it('leaves quoted text alone', () => {
    const t = translateSql(`SELECT coalesce(m, '$.sha'), 'it''s ? @x' AS "LIKE ?" FROM t WHERE x LIKE ?`);
    expect(t.sql).toBe(`SELECT coalesce(m, '$.sha'), 'it''s ? @x' AS "LIKE ?" FROM t WHERE x ILIKE $1`);
    expect(t.params).toEqual({ kind: 'positional', count: 1 });
  });

  it('turns INSERT OR IGNORE into ON CONFLICT DO NOTHING, before RETURNING', () => {
    expect(translateSql('INSERT OR IGNORE INTO t (a) VALUES (?)').sql).toBe('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING');
    expect(translateSql('insert or ignore into t (a) values (?) returning seq').sql).toBe('INSERT into t (a) values ($1) ON CONFLICT DO NOTHING returning seq');
  });

  it('reads a JSON array with json_array_elements_text, as json_each does', () => {
    expect(translateSql('SELECT n.id FROM json_each(?) j CROSS JOIN nodes n ON n.seq = j.value').sql).toBe(
      'SELECT n.id FROM json_array_elements_text(($1)::json) AS j(value) JOIN nodes n ON n.seq = j.value',
    );
    expect(translateSql('EXISTS (SELECT 1 FROM json_each(n.tags) t WHERE t.value = ?)').sql).toBe(
      'EXISTS (SELECT 1 FROM json_array_elements_text((n.tags)::json) AS t(value) WHERE t.value = $1)',
    );
  });

  it('reads json_each without an alias too, as SQLite lets one', () => {
    expect(translateSql('SELECT * FROM jobs WHERE kind IN (SELECT value FROM json_each(?)) ORDER BY id').sql).toBe(
      'SELECT * FROM jobs WHERE kind IN (SELECT value FROM json_array_elements_text(($1)::json) AS json_each(value)) ORDER BY id',
    );
    expect(translateSql('SELECT value FROM json_each(?) WHERE value > ?').sql).toBe('SELECT value FROM json_array_elements_text(($1)::json) AS json_each(value) WHERE value > $2');
  });

  it('turns scalar max/min into greatest/least, leaves the aggregates, drops INDEXED BY', () => {
    expect(translateSql('UPDATE jobs SET attempts = max(attempts - 1, 0), x = min(a, coalesce(b, 1)) WHERE id = ?').sql).toBe(
      'UPDATE jobs SET attempts = greatest(attempts - 1, 0), x = least(a, coalesce(b, 1)) WHERE id = $1',
    );
    expect(translateSql('SELECT max(run_after), min(id) FROM jobs').sql).toBe('SELECT max(run_after), min(id) FROM jobs');
    expect(translateSql('SELECT n.id FROM json_each(?) j CROSS JOIN nodes n ON n.id = j.value').sql).toBe(
      'SELECT n.id FROM json_array_elements_text(($1)::json) AS j(value) JOIN nodes n ON n.id = j.value',
    );
    expect(translateSql('SELECT * FROM a CROSS JOIN b').sql).toBe('SELECT * FROM a CROSS JOIN b');
    expect(translateSql('SELECT 1 FROM refresh_tokens INDEXED BY refresh_tokens_revoked_family WHERE a = ?').sql).toBe('SELECT 1 FROM refresh_tokens WHERE a = $1');
  });

  it('compares with a parameter null-safely, and orders without case by lower()', () => {
    expect(translateSql('SELECT slug FROM p WHERE a IS NOT ? AND b IS ? AND c IS NOT NULL ORDER BY label COLLATE NOCASE, id').sql).toBe(
      'SELECT slug FROM p WHERE a IS DISTINCT FROM $1 AND b IS NOT DISTINCT FROM $2 AND c IS NOT NULL ORDER BY lower(label), id',
    );
  });

  it('compares an email without case on both sides, and maps char(n) to chr(n)', () => {
    expect(translateSql('SELECT * FROM users WHERE email COLLATE NOCASE = ? COLLATE NOCASE').sql).toBe('SELECT * FROM users WHERE lower(email) = lower($1)');
    expect(translateSql("SELECT trim(a || char(10) || substr(b, 1, 5)), 'char(9)' FROM t").sql).toBe("SELECT trim(a || chr(10) || substr(b, 1, 5)), 'char(9)' FROM t");
  });

  it("reads one JSON key with ->>", () => {
    expect(translateSql("SELECT 1 FROM captures c WHERE json_extract(c.metadata, '$.content_sha256') = @hash").sql).toBe("SELECT 1 FROM captures c WHERE (CAST(c.metadata AS json) ->> 'content_sha256') = $1");
  });

  it('maps IFNULL and case-insensitive LIKE', () => {
    expect(translateSql('SELECT IFNULL(a, 0) FROM t WHERE b NOT LIKE ? AND c LIKE ?').sql).toBe('SELECT COALESCE(a, 0) FROM t WHERE b NOT ILIKE $1 AND c ILIKE $2');
  });

  it('refuses what only an engine-specific repository can say', () => {
    for (const sql of ['INSERT OR REPLACE INTO t VALUES (?)', 'SELECT rowid FROM fts WHERE fts MATCH ?', 'PRAGMA user_version', 'SELECT * FROM t WHERE a = ? AND b = @b']) {
      expect(() => translateSql(sql), sql).toThrow(UntranslatableSqlError);
    }
  });
});
