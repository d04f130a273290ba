// `rhizome node edit ID` with no options: the node as Markdown with YAML front matter in
// $VISUAL / $EDITOR; what changed (title, summary, tags, status, PARA items, body) is saved.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { NodePatch } from '../client/types.js';
import { NODE_STATUSES } from '../client/types.js';
import { nodeMarkdown } from '../mcp/markdown.js';
import { CliError, EXIT } from './exit-codes.js';
import { client, print, printJson } from './ui.js';

const FRONT = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?\r?\n?/;

export function parseNodeMarkdown(text: string): { meta: Record<string, unknown>; body: string } {
  const m = FRONT.exec(text);
  if (!m) throw new CliError('the file no longer starts with a --- front matter block; nothing saved', EXIT.usage);
  let meta: unknown;
  try {
    meta = parse(m[1]);
  } catch (e) {
    throw new CliError(`the front matter is not valid YAML (${(e as Error).message.split('\n')[0]}); nothing saved`, EXIT.usage);
  }
  if (!meta || typeof meta !== 'object') throw new CliError('the front matter is empty; nothing saved', EXIT.usage);
  return { meta: meta as Record<string, unknown>, body: text.slice(m[0].length) };
}

const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === null || v === undefined ? [] : [String(v)]);

export async function editInEditor(id: string, json?: boolean): Promise<void> {
  const c = client();
  const node = await c.getNode(id);
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-edit-'));
  const file = join(dir, `${id}.md`);
  try {
    writeFileSync(file, nodeMarkdown(node), { mode: 0o600 });
    const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
    const r = spawnSync(`${editor} "$RHIZOME_EDIT_FILE"`, { shell: true, stdio: 'inherit', env: { ...process.env, RHIZOME_EDIT_FILE: file } });
    if (r.status !== 0) throw new CliError(`the editor (${editor}) exited with ${r.status ?? r.signal}; nothing saved`, EXIT.error);
    const { meta, body } = parseNodeMarkdown(readFileSync(file, 'utf8'));
    const patch: NodePatch = {};
    if (typeof meta.title === 'string' && meta.title !== node.title) patch.title = meta.title;
    const summary = meta.summary === null || meta.summary === undefined ? '' : String(meta.summary);
    if (summary !== node.summary) patch.summary = summary;
    const tags = strings(meta.tags);
    if (JSON.stringify(tags) !== JSON.stringify(node.tags)) patch.tags = tags;
    if (meta.status !== node.status) {
      if (!NODE_STATUSES.includes(meta.status as never)) throw new CliError(`status must be one of ${NODE_STATUSES.join(', ')}; nothing saved`, EXIT.usage);
      patch.status = meta.status as NodePatch['status'];
    }
    const para = strings(meta.para_item_ids);
    if (JSON.stringify(para) !== JSON.stringify(node.para_item_ids)) patch.para_item_ids = para;
    if (body !== node.body_markdown) patch.content = body;
    if (!Object.keys(patch).length) {
      if (json) return printJson(node);
      return print('No changes.');
    }
    const updated = await c.updateNode(id, patch);
    if (json) return printJson(updated);
    print(`Updated node ${updated.id}: ${Object.keys(patch).join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
