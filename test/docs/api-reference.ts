// Renders docs/api.md from the served OpenAPI document: every operation by tag (method, path,
// summary, description, parameters, body, responses), then every named schema. Pure: the
// same document gives the same text, so api-reference.test.ts can tell when the file is stale.
type Schema = Record<string, any>;
type Doc = { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> }; tags?: { name: string; description?: string }[] };

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
const cell = (s: unknown) => String(s ?? '').replace(/\r?\n+/g, ' ').replace(/\|/g, '\\|').trim();
const anchor = (name: string) => `schema-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.$ref) {
    const name = String(s.$ref).split('/').pop()!;
    return `[${name}](#${anchor(name)})`;
  }
  if (s.enum) return s.enum.map((v: unknown) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (s[k]) return (s[k] as Schema[]).map(typeOf).join(k === 'allOf' ? ' & ' : ' \\| ');
  }
  const t = Array.isArray(s.type) ? s.type.join(' \\| ') : s.type;
  if (t === 'array') return `${typeOf(s.items)}[]`;
  if (t === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return `map of ${typeOf(s.additionalProperties)}`;
  const fmt = s.format ? ` (${s.format})` : '';
  return `${t ?? 'any'}${fmt}`;
}

function limits(s: Schema | undefined): string {
  if (!s) return '';
  const parts: string[] = [];
  if (s.default !== undefined) parts.push(`default \`${JSON.stringify(s.default)}\``);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined && s.minLength > 0) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} items`);
  return parts.join(', ');
}

function describe(s: Schema | undefined, fallback?: string): string {
  return [fallback ?? s?.description, limits(s)].filter(Boolean).join('; ');
}

function fieldsTable(s: Schema): string[] {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const req = new Set<string>(s.required ?? []);
  const rows = Object.entries(props).map(([k, v]) => `| \`${k}\` | ${typeOf(v)} | ${req.has(k) ? 'yes' : ''} | ${cell(describe(v))} |`);
  return rows.length ? ['| field | type | required | description |', '|---|---|---|---|', ...rows] : [];
}

function content(c: Record<string, { schema?: Schema }> | undefined): string {
  if (!c) return '';
  return Object.entries(c).map(([type, v]) => `\`${type}\`${v.schema ? ` ${typeOf(v.schema)}` : ''}`).join(', ');
}

export function renderApiReference(doc: Doc): string {
  const out: string[] = [
    `# ${doc.info.title} reference`,
    '',
    '<!-- Generated from GET /api/v1/openapi.json by `npm run docs:api`; do not edit by hand.',
    '     test/docs/api-reference.test.ts fails when this file is stale. -->',
    '',
    `Version ${doc.info.version}. ${doc.info.description ?? ''}`.trim(),
    'Every route needs `Authorization: ApiKey {key_id}.{secret}` or `Authorization: Bearer <access token>`',
    'unless it says "no authentication". How the resources behave, and the errors, are explained in',
    '[api-guide.md](api-guide.md); a server also serves this document at `/api/v1/openapi.json` and a',
    'browsable reference at `/api/v1/docs`.',
    '',
  ];
  const ops: { tag: string; method: string; path: string; op: any }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) ops.push({ tag: item[method].tags?.[0] ?? 'other', method, path, op: { ...item[method], parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])] } });
  }
  const tags = [...new Set(ops.map((o) => o.tag))];
  out.push('## Contents', '', ...tags.map((t) => `- [${t}](#${t.toLowerCase().replace(/[^a-z0-9]+/g, '-')}) (${ops.filter((o) => o.tag === t).length})`), '- [Schemas](#schemas)', '');
  for (const tag of tags) {
    out.push(`## ${tag}`, '');
    const about = doc.tags?.find((t) => t.name === tag)?.description;
    if (about) out.push(about, '');
    for (const { method, path, op } of ops.filter((o) => o.tag === tag)) {
      out.push(`### \`${method.toUpperCase()} ${path}\``, '');
      const flags = [op.deprecated ? '**Deprecated.**' : '', Array.isArray(op.security) && op.security.length === 0 ? 'No authentication.' : ''].filter(Boolean).join(' ');
      out.push([op.summary ? `${op.summary}.`.replace(/\.\.$/, '.') : '', flags].filter(Boolean).join(' '), '');
      if (op.description && op.description !== op.summary) out.push(op.description.trim(), '');
      const params = op.parameters as Schema[];
      if (params.length) {
        out.push('| parameter | in | type | required | description |', '|---|---|---|---|---|');
        for (const p of params) out.push(`| \`${p.name}\` | ${p.in} | ${typeOf(p.schema)} | ${p.required ? 'yes' : ''} | ${cell(describe(p.schema, p.description ?? p.schema?.description))} |`);
        out.push('');
      }
      if (op.requestBody) out.push(`Request body${op.requestBody.required ? '' : ' (optional)'}: ${content(op.requestBody.content)}`, '');
      out.push('| status | response |', '|---|---|');
      for (const [code, r] of Object.entries(op.responses ?? {}) as [string, any][]) out.push(`| ${code} | ${cell([r.description, content(r.content)].filter(Boolean).join(' — '))} |`);
      out.push('');
    }
  }
  out.push('## Schemas', '');
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`<a id="${anchor(name)}"></a>`, `### ${name}`, '');
    if (s.description) out.push(cell(s.description), '');
    const table = fieldsTable(s);
    if (table.length) out.push(...table, '');
    else out.push(`${typeOf({ ...s, description: undefined })}`, '');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
