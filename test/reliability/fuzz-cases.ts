// Malformed requests generated from the OpenAPI document: wrong types, huge and deep values,
// unicode edge cases (lone surrogates, NUL, bidi), truncated JSON and multipart, bad content
// types, duplicate query parameters. Deterministic for a seed, so a failure can be replayed.

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  label: string;
}

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; anyOf?: Schema[]; oneOf?: Schema[] };
type Op = { parameters?: Array<{ in: string; name: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };
export type OpenApi = { paths: Record<string, Record<string, Op>>; components?: { schemas?: Record<string, Schema> } };

export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  return { next, pick: <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)], int: (n: number) => Math.floor(next() * n) };
}

const PATH_VALUES = ['%00', '%ED%A0%80', '%F0%9F%92%A9', 'x'.repeat(3000), '..%2F..%2Fetc%2Fpasswd', '%25', '%zz', '-1', '0', '1e309', 'nod_00000000000000000000000000', '%E2%80%AE', 'null', '%20', '%0D%0AX-Injected:%201', 'cap_' + 'z'.repeat(40)];
const QUERY_VALUES = ['', 'abc', '-1', '0', '1e309', 'NaN', '99999999999999999999999', '%00', '%ED%A0%80', '%FF', 'x'.repeat(12000), 'true', '[]', '{}', '%F0%9F%92%A9'.repeat(50), '%E2%80%AE', '1.5', ' 1', '%0A'];
const JSON_VALUES: unknown[] = [null, true, false, 0, -1, 1e308, -0.0, 2 ** 63, 'x', '', 'x'.repeat(200_000), '\ud800', '\udfff\ud800', 'a\u0000b', '\u202e', '💩'.repeat(1000), [], [1, 'a', null], {}, { a: { b: { c: [] } } }, '   ', '<script>alert(1)</script>', "'; DROP TABLE nodes; --", 'MATCH "', 'NEAR(a b', '*', '"'];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/json; boundary=x', 'multipart/form-data', 'multipart/form-data; boundary=', 'application/problem+json', '', 'application/jsonx', '*/*'];

function resolve(doc: OpenApi, s: Schema | undefined, depth = 0): Schema | undefined {
  if (!s || depth > 5) return s;
  if (s.$ref) return resolve(doc, doc.components?.schemas?.[s.$ref.split('/').pop()!], depth + 1);
  return s;
}

function deep(n: number, open: string, close: string): string {
  return open.repeat(n) + close.repeat(n);
}

function jsonBodies(doc: OpenApi, op: Op, r: ReturnType<typeof rng>): Array<{ body: string | Uint8Array; label: string }> {
  const schema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
  const props = Object.keys(schema?.properties ?? {});
  const out: Array<{ body: string | Uint8Array; label: string }> = [];
  const prop = props.length ? r.pick(props) : 'title';
  const wrong = r.pick(JSON_VALUES);
  out.push({ body: JSON.stringify({ [prop]: wrong }), label: `${prop}=${JSON.stringify(wrong)?.slice(0, 40)}` });
  const all: Record<string, unknown> = {};
  for (const p of props) all[p] = r.pick(JSON_VALUES);
  out.push({ body: JSON.stringify(all), label: 'every property a wrong value' });
  out.push({ body: JSON.stringify({ [prop]: JSON.parse(deep(2000, '[', ']')) }), label: 'deep array value' });
  out.push({ body: deep(50_000, '{"a":', '}').replace(/}+$/, '') + '1' + '}'.repeat(50_000), label: 'deep object document' });
  out.push({ body: deep(100_000, '[', ']'), label: 'deep array document' });
  const full = JSON.stringify(Object.fromEntries(props.map((p) => [p, 'x'])));
  out.push({ body: full.slice(0, Math.max(1, r.int(full.length))), label: 'truncated JSON' });
  out.push({ body: '{"title": "a\\ud800b", "content": "\\u0000"}', label: 'escaped lone surrogate and NUL' });
  out.push({ body: new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d]), label: 'invalid UTF-8 bytes' });
  out.push({ body: '', label: 'empty body' });
  out.push({ body: 'null', label: 'JSON null' });
  out.push({ body: '[' + JSON.stringify(all) + ']', label: 'array instead of object' });
  out.push({ body: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}', label: 'prototype keys' });
  out.push({ body: `{"${prop}": 1, "${prop}": "dup"}`, label: 'duplicate JSON key' });
  out.push({ body: '{"a": 1e999999, "b": -1e999999}', label: 'huge exponents' });
  out.push({ body: 'x'.repeat(1024 * 1024 + 10), label: 'over the body limit' });
  return out;
}

function multipartBodies(r: ReturnType<typeof rng>): Array<{ body: string; ct: string; label: string }> {
  const part = (name: string, extra = '') => `--b42\r\nContent-Disposition: form-data; name="${name}"${extra}\r\nContent-Type: text/plain\r\n\r\nhello\r\n`;
  return [
    { body: part('file', '; filename="a.txt"'), ct: 'multipart/form-data; boundary=b42', label: 'no closing boundary' },
    { body: '--b42\r\nContent-Disposition: form-da', ct: 'multipart/form-data; boundary=b42', label: 'cut in a part header' },
    { body: part('file', '; filename="a.txt"') + '--b42--', ct: 'multipart/form-data; boundary=other', label: 'boundary mismatch' },
    { body: part('file', '; filename="a.txt"') + '--b42--', ct: 'multipart/form-data', label: 'no boundary parameter' },
    { body: part('notfile') + '--b42--\r\n', ct: 'multipart/form-data; boundary=b42', label: 'no file field' },
    { body: part('file', `; filename="${'%00\u0000\ud800'.repeat(r.int(50) + 1)}"`) + '--b42--\r\n', ct: 'multipart/form-data; boundary=b42', label: 'hostile file name' },
    { body: `--b42\r\n${'X-H: y\r\n'.repeat(2000)}\r\n\r\n--b42--`, ct: 'multipart/form-data; boundary=b42', label: 'many part headers' },
    { body: '', ct: 'multipart/form-data; boundary=b42', label: 'empty multipart' },
    { body: part('file', '; filename="a.txt"') + '--b42--\r\n', ct: 'multipart/form-data; boundary="' + 'b'.repeat(300) + '"', label: 'overlong boundary' },
  ];
}

/** One batch of malformed requests for one operation. */
export function casesFor(doc: OpenApi, path: string, method: string, op: Op, r: ReturnType<typeof rng>, auth: string): FuzzRequest[] {
  const m = method.toUpperCase();
  const params = op.parameters ?? [];
  const fill = (p: string) => p.replace(/\{(\w+)\}/g, () => r.pick(PATH_VALUES));
  const sane = (p: string) => p.replace(/\{(\w+)\}/g, 'zzz_missing');
  const base = { Authorization: auth };
  const out: FuzzRequest[] = [];
  out.push({ method: m, path: fill(path), headers: base, label: 'hostile path parameter' });
  const q = params.filter((p) => p.in === 'query');
  if (q.length) {
    const p = r.pick(q);
    out.push({ method: m, path: `${sane(path)}?${p.name}=${r.pick(QUERY_VALUES)}`, headers: base, label: `query ${p.name} wrong` });
    out.push({ method: m, path: `${sane(path)}?${p.name}=1&${p.name}=2&${p.name}=${r.pick(QUERY_VALUES)}`, headers: base, label: `duplicate ${p.name}` });
    out.push({ method: m, path: `${sane(path)}?${q.map((x) => `${x.name}[]=${r.pick(QUERY_VALUES)}`).join('&')}`, headers: base, label: 'array-style params' });
  }
  out.push({ method: m, path: `${sane(path)}?${'%'}&=&&==&x=%ED%A0%80`, headers: base, label: 'broken query string' });
  if (op.requestBody?.content?.['application/json']) {
    for (const b of jsonBodies(doc, op, r)) out.push({ method: m, path: sane(path), headers: { ...base, 'Content-Type': 'application/json' }, body: b.body, label: b.label });
    const ct = r.pick(CONTENT_TYPES);
    out.push({ method: m, path: sane(path), headers: ct ? { ...base, 'Content-Type': ct } : base, body: '{"title":"x"}', label: `content type "${ct}"` });
  }
  if (op.requestBody?.content?.['multipart/form-data']) {
    for (const b of multipartBodies(r)) out.push({ method: m, path: sane(path), headers: { ...base, 'Content-Type': b.ct }, body: b.body, label: b.label });
  }
  if (m === 'GET' || m === 'DELETE') out.push({ method: m, path: sane(path), headers: { ...base, 'Content-Type': 'application/json' }, body: m === 'GET' ? undefined : '{"unexpected": true}', label: 'body on a bodiless method' });
  out.push({ method: r.pick(['PUT', 'PATCH', 'OPTIONS', 'PROPFIND']), path: sane(path), headers: base, label: 'other method' });
  out.push({ method: m, path: sane(path), headers: { Authorization: r.pick(['ApiKey', 'ApiKey .', 'Bearer', 'Bearer a.b.c', 'Basic Zm9vOmJhcg==', 'ApiKey key_x.' + 'y'.repeat(5000), '\u00ff\u00fe']) }, label: 'bad credentials' });
  return out;
}
