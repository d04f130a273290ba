// The MCP server through the SDK's own Client: over stdio (`rhizome mcp` as a child
// process, talking HTTP to a real server) and over streamable HTTP at /mcp on that server.
// Every tool is called, bad arguments come back as tool errors, tenants stay apart.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
let betaKey: string;
const open: Client[] = [];

const TOOLS = [
  'ask', 'assign_para', 'capture', 'capture_status', 'create_node', 'create_para_item', 'delete_node', 'edit_node', 'get_context',
  'get_node', 'graph_health', 'highlight', 'link_nodes', 'list_feeds', 'list_highlights', 'list_para', 'list_tags', 'para_tree', 'read_capture_content', 'read_node',
  'recall', 'recent_activity', 'related_nodes', 'remember', 'search_nodes', 'subscribe_feed', 'suggest_links', 'unlink_nodes', 'update_node',
];

async function stdioClient(token: string): Promise<Client> {
  const env = srv.env({ RHIZOME_TOKEN: token });
  const client = new Client({ name: 'rhizome-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, stderr: 'pipe' }));
  open.push(client);
  return client;
}

async function httpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'rhizome-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: `ApiKey ${token}` } } }));
  open.push(client);
  return client;
}

async function call(c: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, any> };
}

beforeAll(async () => {
  srv = await startChildServer();
  const beta = await runCli(['tenants', 'create', 'beta', '--json'], srv.env());
  betaKey = JSON.parse(beta.stdout).api_key;
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await srv?.stop();
});

/** Calls every tool once through `c` and checks text + structured content. */
async function exerciseAllTools(c: Client, tag: string, key: string) {
  const tools = (await c.listTools()).tools;
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  for (const t of tools) {
    expect(t.description!.length).toBeGreaterThan(30);
    expect(t.inputSchema.type).toBe('object');
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(byName.search_nodes.annotations).toMatchObject({ readOnlyHint: true });
  expect(byName.update_node.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  expect(byName.create_node.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });

  const a = await call(c, 'create_node', { title: `Fermentation basics ${tag}`, content: 'Yeast and bacteria ferment dough sugars.', tags: ['baking'] });
  expect(a.isError).toBeFalsy();
  expect(a.text).toMatch(/^Created node "Fermentation basics/);
  const b = await call(c, 'create_node', { title: `Proofing bread ${tag}`, content: 'Let the dough rise until doubled.' });
  const aId = a.data.id as string;
  const bId = b.data.id as string;

  const got = await call(c, 'get_node', { id: aId });
  expect(got.text).toMatch(/^# Fermentation basics/);
  expect(got.data).toMatchObject({ id: aId, body_markdown: 'Yeast and bacteria ferment dough sugars.', tags: ['baking'] });

  const upd = await call(c, 'update_node', { id: aId, status: 'validated', summary: 'How fermentation works' });
  expect(upd.data).toMatchObject({ status: 'validated', summary: 'How fermentation works' });

  const found = await call(c, 'search_nodes', { query: `fermentation ${tag}`, mode: 'keyword' });
  expect(found.data.data.map((n: { id: string }) => n.id)).toContain(aId);
  expect(found.text).toMatch(/Fermentation basics/);
  expect(found.text).toMatch(/matched in \w+: .*\*\*Fermentation\*\*/); // the snippet shows where

  const linked = await call(c, 'link_nodes', { source_id: bId, target_id: aId, type: 'derived_from' });
  expect(linked.isError).toBeFalsy();
  expect(linked.data.links).toEqual([{ target_id: aId, type: 'derived_from' }]);
  const rel = await call(c, 'related_nodes', { id: aId });
  expect(rel.data.nodes).toEqual([expect.objectContaining({ id: bId, relationship_type: 'source_of' })]);

  const sug = await call(c, 'suggest_links', { text: 'ferment the dough with yeast' });
  expect(sug.data.suggestions.some((s: { node_id: string }) => s.node_id === aId)).toBe(true);

  const ctx = await call(c, 'get_context', { query: 'fermentation', focus_node_ids: [bId] });
  expect(ctx.data.nodes.map((n: { id: string }) => n.id)).toContain(aId);
  // The passage that matched comes with the node: no second request to read it.
  expect(ctx.text).toMatch(/> Yeast and bacteria ferment dough sugars\./);

  // Agent memory: remember a dated fact in a session, linked to a node; recall it with its citation.
  expect(byName.remember.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  expect(byName.recall.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  const mem = await call(c, 'remember', { text: `The ${tag} sourdough starter was named Clint after a neighbour's cat.`, occurred_at: '2023-05-14', session: `s-${tag}`, links: [{ target_id: aId, type: 'related' }] });
  expect(mem.isError).toBeFalsy();
  expect(mem.data.created).toBe(1);
  const memId = mem.data.results[0].id as string;
  expect((await call(c, 'get_node', { id: memId })).data).toMatchObject({ occurred_at: '2023-05-14T00:00:00.000Z', tags: [`session:s-${tag}`] });
  const recalled = await call(c, 'recall', { query: 'what was the starter named', session: `s-${tag}` });
  expect(recalled.data.citations[0]).toMatchObject({ node_id: memId, passage: expect.stringContaining('named Clint'), date: '2023-05-14T00:00:00.000Z', start: 0 });
  expect(recalled.text).toMatch(/\[1\] .*2023-05-14/);
  const otherSession = await call(c, 'recall', { query: 'what was the starter named', session: 'elsewhere' });
  expect(otherSession.data.citations).toEqual([]);
  const inMay = await call(c, 'recall', { query: `${tag} starter named in May 2023` });
  expect(inMay.data.citations[0].node_id).toBe(memId);
  expect(inMay.data.citations[0].reasons).toContain('date_match:May 2023');

  const tree0 = await call(c, 'para_tree');
  expect(Object.keys(tree0.data).sort()).toEqual(['areas', 'projects', 'resources']);
  const item = await (await fetch(`${srv.url}/api/v1/para`, {
    method: 'POST',
    headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ category: 'areas', label: `Baking ${tag}` }),
  })).json();
  // Creating an item classifies orphans in the background, so assert on set/add/remove results.
  const assigned = await call(c, 'assign_para', { node_id: bId, set: [item.id] });
  expect(assigned.data.para_item_ids).toEqual([item.id]);
  expect(assigned.text).toMatch(new RegExp(`is now in: ${item.id}`));
  expect((await call(c, 'assign_para', { node_id: bId, add: [item.id] })).data.para_item_ids).toEqual([item.id]);
  const tree = await call(c, 'para_tree');
  expect(tree.text).toMatch(new RegExp(`Baking ${tag} \\[${item.id}\\] active, [1-9]\\d* node`));
  const removed = await call(c, 'assign_para', { node_id: bId, remove: [item.id] });
  expect(removed.data.para_item_ids).not.toContain(item.id);
  const conflicting = await call(c, 'assign_para', { node_id: bId, set: [], add: [item.id] });
  expect(conflicting.isError).toBe(true);

  const cap = await call(c, 'capture', { note: `# Starter schedule ${tag}\nFeed at 8am and 8pm.`, why: 'routine' });
  expect(cap.isError).toBeFalsy();
  expect(cap.data).toMatchObject({ id: expect.any(String), status: 'pending' });
  let status = await call(c, 'capture_status', { id: cap.data.id });
  for (let i = 0; i < 100 && !['completed', 'failed'].includes(status.data.status); i++) {
    await new Promise((r) => setTimeout(r, 200));
    status = await call(c, 'capture_status', { id: cap.data.id });
  }
  expect(status.data).toMatchObject({ status: 'completed', source: 'mcp', content_type: 'note', title: `Starter schedule ${tag}` });
  expect(status.text).toMatch(/completed/);
  expect(status.data.activity.map((e: { kind: string }) => e.kind)).toContain('created');

  const health = await call(c, 'graph_health');
  expect(health.data.total_nodes).toBeGreaterThanOrEqual(3);
  expect(health.text).toMatch(/total_links: \d+/);

  // Bad arguments: tool errors, not protocol failures, and the connection keeps working.
  const noId = await call(c, 'get_node', {});
  expect(noId.isError).toBe(true);
  expect(noId.text).toMatch(/id/);
  const badEnum = await call(c, 'search_nodes', { mode: 'fuzzy' });
  expect(badEnum.isError).toBe(true);
  const both = await call(c, 'capture', { url: 'https://example.com/', note: 'x' });
  expect(both.isError).toBe(true);
  expect(both.text).toMatch(/exactly one of url or note/);
  const missing = await call(c, 'get_node', { id: 'nod_missing' });
  expect(missing.isError).toBe(true);
  expect(missing.text).toMatch(/404 \(not_found\)/);
  const badLink = await call(c, 'link_nodes', { source_id: aId, target_id: aId });
  expect(badLink.isError).toBe(true);
  expect((await call(c, 'graph_health')).isError).toBeFalsy();
  return { aId, bId };
}

describe('MCP over stdio (rhizome mcp)', { timeout: 120_000 }, () => {
  it('lists tools, calls each, reports bad arguments as tool errors', async () => {
    const c = await stdioClient(srv.apiKey);
    await exerciseAllTools(c, 'stdio', srv.apiKey);
  });

  it('keeps tenants apart', async () => {
    const alpha = await stdioClient(srv.apiKey);
    const beta = await stdioClient(betaKey);
    const made = await call(alpha, 'create_node', { title: 'Alpha secret recipe' });
    const peek = await call(beta, 'get_node', { id: made.data.id });
    expect(peek.isError).toBe(true);
    expect(peek.text).toMatch(/404/);
    const search = await call(beta, 'search_nodes', { query: 'secret recipe', mode: 'keyword' });
    expect(search.data.total).toBe(0);
  });
});

describe('MCP over streamable HTTP (/mcp)', { timeout: 120_000 }, () => {
  it('lists tools, calls each, reports bad arguments as tool errors', async () => {
    const c = await httpClient(srv.apiKey);
    await exerciseAllTools(c, 'http', srv.apiKey);
  });

  it('needs the same credentials as the API', async () => {
    const anon = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const c = new Client({ name: 'x', version: '1' });
    await expect(c.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: 'ApiKey key_x.nope' } } }))).rejects.toThrow();
  });

  it('keeps tenants apart', async () => {
    const alpha = await httpClient(srv.apiKey);
    const beta = await httpClient(betaKey);
    const made = await call(alpha, 'create_node', { title: 'Alpha private plan' });
    const peek = await call(beta, 'get_node', { id: made.data.id });
    expect(peek.isError).toBe(true);
    expect(peek.text).toMatch(/404/);
    const upd = await call(beta, 'update_node', { id: made.data.id, title: 'hijacked' });
    expect(upd.isError).toBe(true);
    expect((await call(alpha, 'get_node', { id: made.data.id })).data.title).toBe('Alpha private plan');
    const search = await call(beta, 'search_nodes', { query: 'private plan', mode: 'keyword' });
    expect(search.data.total).toBe(0);
  });
});
