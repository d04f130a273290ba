// Test code only: tests write their direct checks in SQLite's SQL, and on PostgreSQL (the
// postgres-app tier) raw.ts runs them through this rewrite. Rhizome itself writes each
// engine's SQL (src/db/store/sql.ts). Most SQLite SQL is also PostgreSQL's; what differs
// is rewritten here, once per statement, so one repository serves both backends:
//   - parameters: `?` and named `@name` / `:name` / `$name` become `$1`, `$2`, … (a name
//     used twice is one parameter);
//   - `INSERT OR IGNORE INTO …` becomes `INSERT INTO … ON CONFLICT DO NOTHING`;
//   - `json_each(x) alias` over a JSON array becomes `json_array_elements_text((x)::json)
//     AS alias(value)`;
//   - `IFNULL(` becomes `COALESCE(`; `LIKE` becomes `ILIKE` (SQLite's LIKE ignores ASCII case);
//   - scalar `max(a, b)` / `min(a, b)` become `greatest` / `least`; `INDEXED BY` hints go;
//     `CROSS JOIN t ON …` (SQLite's join-order hint) becomes `JOIN t ON …`;
//   - `json_extract(col, '$.key')` becomes `(CAST(col AS json) ->> 'key')`;
//   - `x IS ?` / `x IS NOT ?` become `IS [NOT] DISTINCT FROM`; `col COLLATE NOCASE` (or
//     `? COLLATE NOCASE`) is `lower(…)`; one-argument `char(n)` is `chr(n)`.
// Text inside quotes ('…', "…") is never touched. SQL that needs more (FTS5, vec0, pragmas,
// `INSERT OR REPLACE`) lives in the engine's own repository and is refused here.

export interface Translated {
  sql: string;
  /** Positional: how many `?` there were. Named: the names, in `$n` order. */
  params: { kind: 'positional'; count: number } | { kind: 'named'; names: string[] } | { kind: 'none' };
}

export class UntranslatableSqlError extends Error {}

const REFUSED: Array<[RegExp, string]> = [
  [/\bINSERT\s+OR\s+REPLACE\b/i, 'INSERT OR REPLACE'],
  [/\bMATCH\b/i, 'MATCH (FTS5, vec0)'],
  [/\bPRAGMA\b/i, 'PRAGMA'],
  [/\browid\b/i, 'rowid'],
];

/** Splits SQL into code and quoted runs, so rewrites only ever see code. */
function segments(sql: string): Array<{ code: boolean; text: string }> {
  const out: Array<{ code: boolean; text: string }> = [];
  let i = 0;
  let start = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      if (i > start) out.push({ code: true, text: sql.slice(start, i) });
      let j = i + 1;
      for (; j < sql.length; j++) {
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j++; // doubled quote inside
          else break;
        }
      }
      out.push({ code: false, text: sql.slice(i, j + 1) });
      i = start = j + 1;
    } else i++;
  }
  if (start < sql.length) out.push({ code: true, text: sql.slice(start) });
  return out;
}

export function translateSql(sqliteSql: string): Translated {
  // `json_extract(x, '$.key')` (one level, a plain key): PostgreSQL's `->>` on x as json.
  sqliteSql = sqliteSql.replace(/\bjson_extract\(\s*([A-Za-z_][\w.]*)\s*,\s*'\$\.([A-Za-z_]\w*)'\s*\)/gi, "(CAST($1 AS json) ->> '$2')");
  const parts = segments(sqliteSql);
  const code = parts.filter((p) => p.code).map((p) => p.text).join(' ');
  for (const [re, what] of REFUSED) if (re.test(code)) throw new UntranslatableSqlError(`${what} has no PostgreSQL translation here: ${sqliteSql.slice(0, 80)}`);

  let positional = 0;
  const names: string[] = [];
  let ignore = false;
  for (const p of parts) {
    if (!p.code) continue;
    let t = p.text;
    if (/\bINSERT\s+OR\s+IGNORE\b/i.test(t)) {
      ignore = true;
      t = t.replace(/\bINSERT\s+OR\s+IGNORE\b/gi, 'INSERT');
    }
    // Parameters first (the rewrites below add `::` casts); a named parameter is a sigil then a name.
    t = t.replace(/\?|[@:$]([A-Za-z_]\w*)/g, (m, name: string | undefined) => {
      if (m === '?') return `$${++positional}`;
      let k = names.indexOf(name!);
      if (k < 0) k = names.push(name!) - 1;
      return `$${k + 1}`;
    });
    t = t.replace(/\bjson_each\(([^()]*(?:\([^()]*\)[^()]*)*)\)(\s+(?:AS\s+)?(?!WHERE\b|JOIN\b|CROSS\b|LEFT\b|INNER\b|ON\b|ORDER\b|GROUP\b|LIMIT\b)([A-Za-z_]\w*))?/gi, (_m, arg: string, _a, alias: string | undefined) => `json_array_elements_text((${arg})::json) AS ${alias ?? 'json_each'}(value)`);
    t = t.replace(/\s+INDEXED\s+BY\s+\w+/gi, '');
    // Null-safe comparison with a parameter: SQLite's IS / IS NOT, PostgreSQL's IS [NOT] DISTINCT FROM.
    t = t.replace(/\bIS\s+NOT\s+(\$\d+)/gi, 'IS DISTINCT FROM $1').replace(/\bIS\s+(\$\d+)/gi, 'IS NOT DISTINCT FROM $1');
    t = t.replace(/(\$\d+|[A-Za-z_][\w.]*)\s+COLLATE\s+NOCASE\b/gi, 'lower($1)');
    // SQLite's one-argument char(n) is PostgreSQL's chr(n).
    t = t.replace(/\bchar\((?=[^(),]*\))/gi, 'chr(');
    // SQLite's CROSS JOIN … ON is an inner join whose order the planner keeps.
    t = t.replace(/\bCROSS\s+JOIN(\s+\w+(?:\s+(?:AS\s+)?(?!ON\b)\w+)?\s+ON)\b/gi, 'JOIN$1');
    t = scalarMinMax(t);
    t = t.replace(/\bIFNULL\(/gi, 'COALESCE(').replace(/\bNOT\s+LIKE\b/gi, 'NOT ILIKE').replace(/(?<!NOT\s)\bLIKE\b/gi, 'ILIKE');
    p.text = t;
  }
  if (positional && names.length) throw new UntranslatableSqlError(`mixes ? and named parameters: ${sqliteSql.slice(0, 80)}`);
  let sql = parts.map((p) => p.text).join('');
  if (ignore) {
    const ret = /\bRETURNING\b/i.exec(sql);
    sql = ret ? `${sql.slice(0, ret.index)}ON CONFLICT DO NOTHING ${sql.slice(ret.index)}` : `${sql.replace(/\s*;?\s*$/, '')} ON CONFLICT DO NOTHING`;
  }
  return {
    sql,
    params: positional ? { kind: 'positional', count: positional } : names.length ? { kind: 'named', names } : { kind: 'none' },
  };
}

/** SQLite's max()/min() with several arguments are scalar: PostgreSQL's greatest()/least(). */
function scalarMinMax(code: string): string {
  const re = /\b(max|min)\(/gi;
  let out = '';
  let last = 0;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    let depth = 0;
    let comma = false;
    let i = m.index + m[0].length;
    for (; i < code.length; i++) {
      const ch = code[i];
      if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ',' && depth === 0) comma = true;
    }
    if (!comma) continue;
    out += code.slice(last, m.index) + (m[1].toLowerCase() === 'max' ? 'greatest(' : 'least(');
    last = m.index + m[0].length;
  }
  return out + code.slice(last);
}
