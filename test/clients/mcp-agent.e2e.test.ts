// The agent-facing MCP surface through the SDK's own Client over both transports (stdio:
// `rhizome mcp` as a child process; streamable HTTP at /mcp): reading by title, partial
// edits, delete/unlink, recent activity, capture content, PARA items, tags, resources
// (paginated list, node and PARA templates) and prompts, with exact tool annotations.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startChildServer, type ChildServer } from './server.js';

let srv: ChildServer;
const open: Client[] = [];

beforeAll(async () => {
  srv = await startChildServer();
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await srv?.stop();
});

const transports: Record<string, () => Promise<Client>> = {
  stdio: async () => {
    const c = new Client({ name: 'rhizome-test', version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env: srv.env({ RHIZOME_TOKEN: srv.apiKey }), stderr: 'pipe' }));
    open.push(c);
    return c;
  },
  http: async () => {
    const c = new Client({ name: 'rhizome-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: `ApiKey ${srv.apiKey}` } } }));
    open.push(c);
    return c;
  },
};

async function call(c: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, any> };
}

const HINTS: Record<string, [boolean, boolean, boolean]> = {
  // [readOnly, destructive, idempotent]
  read_node: [true, false, true], list_tags: [true, false, true], list_para: [true, false, true],
  recent_activity: [true, false, true], read_capture_content: [true, false, true], search_nodes: [true, false, true],
  edit_node: [false, true, false], delete_node: [false, true, true], unlink_nodes: [false, true, true],
  create_para_item: [false, false, false], create_node: [false, false, false], assign_para: [false, true, true],
};

for (const [kind, connect] of Object.entries(transports)) {
  describe(`MCP agent tools over ${kind}`, { timeout: 120_000 }, () => {
    it('advertises only what it has, with exact annotations', async () => {
      const c = await connect();
      const caps = c.getServerCapabilities()!;
      expect(caps.tools).toEqual({ listChanged: false });
      expect(caps.resources).toEqual({ listChanged: false });
      expect(caps.prompts).toEqual({ listChanged: false });
      expect(caps.completions).toBeUndefined();
      const tools = Object.fromEntries((await c.listTools()).tools.map((t) => [t.name, t]));
      for (const [name, [ro, de, id]] of Object.entries(HINTS)) {
        expect(tools[name].annotations, name).toEqual({ readOnlyHint: ro, destructiveHint: de, idempotentHint: id, openWorldHint: false });
      }
      expect(tools.capture.annotations).toMatchObject({ openWorldHint: true });
    });

    it('reads by title, edits parts of a body, unlinks and deletes', async () => {
      const c = await connect();
      const t = `Garden plan ${kind}`;
      const a = (await call(c, 'create_node', { title: t, content: '# Beds\nTomatoes.\n\n## Watering\nDaily.\n\n# Tools\nSpade.', tags: [`veg-${kind}`] })).data;
      const b = (await call(c, 'create_node', { title: `Compost ${kind}`, content: 'Greens and browns.' })).data;

      const exact = await call(c, 'read_node', { title: t.toLowerCase() });
      expect(exact.data).toMatchObject({ id: a.id, exact_match: true });
      expect(exact.text).toMatch(new RegExp(`^---\\nid: ${a.id}\\ntitle: ${t}\\n`));
      const fuzzy = await call(c, 'read_node', { title: `garden plans ${kind}` });
      expect(fuzzy.data).toMatchObject({ id: a.id, exact_match: false });
      expect(fuzzy.text).toMatch(/closest match/);
      expect((await call(c, 'read_node', { title: `garden plans ${kind}`, fuzzy: false })).isError).toBe(true);

      let e = await call(c, 'edit_node', { id: a.id, operation: 'append', content: 'Appendix.' });
      expect(e.data.body_markdown).toMatch(/Spade\.\n\nAppendix\.$/);
      e = await call(c, 'edit_node', { id: a.id, operation: 'prepend', content: 'Intro.' });
      expect(e.data.body_markdown).toMatch(/^Intro\.\n\n# Beds/);
      e = await call(c, 'edit_node', { id: a.id, operation: 'replace_section', heading: '## Watering', content: 'Twice a week.' });
      expect(e.data.body_markdown).toContain('## Watering\nTwice a week.\n\n# Tools\nSpade.');
      const wrong = await call(c, 'edit_node', { id: a.id, operation: 'find_replace', find: 'a', content: 'A' });
      expect(wrong.isError).toBe(true);
      expect(wrong.text).toMatch(/expected 1; nothing was changed/);
      e = await call(c, 'edit_node', { id: a.id, operation: 'find_replace', find: 'Spade', content: 'Fork', expected_count: 1 });
      expect(e.data.body_markdown).toContain('Fork');
      expect((await call(c, 'edit_node', { id: a.id, operation: 'replace_section', heading: 'Nope', content: 'x' })).isError).toBe(true);

      // An empty summary: search results carry a body excerpt instead.
      const found = await call(c, 'search_nodes', { query: `compost ${kind}`, mode: 'keyword', tags: [] });
      expect(found.text).toMatch(/Greens and browns\./);
      const tagged = await call(c, 'search_nodes', { tags: [`veg-${kind}`] });
      expect(tagged.data.data.map((n: { id: string }) => n.id)).toEqual([a.id]);
      const ctx = await call(c, 'get_context', { query: `compost ${kind}` });
      // The passage that matched comes with the node (no second request to read it).
      expect(ctx.data.nodes.find((n: { id: string }) => n.id === b.id)?.passages[0].text).toBe('Greens and browns.');
      expect(ctx.text).toMatch(/> Greens and browns\./);

      await call(c, 'link_nodes', { source_id: a.id, target_id: b.id });
      const un = await call(c, 'unlink_nodes', { source_id: b.id, target_id: a.id });
      expect(un.data).toMatchObject({ removed: true, links: [] });
      expect((await call(c, 'related_nodes', { id: a.id })).data.nodes).toEqual([]);
      expect((await call(c, 'unlink_nodes', { source_id: b.id, target_id: a.id })).data.removed).toBe(false);

      expect((await call(c, 'delete_node', { id: b.id })).text).toMatch(/Deleted node/);
      expect((await call(c, 'get_node', { id: b.id })).text).toMatch(/404/);
      expect((await call(c, 'delete_node', { id: b.id })).isError).toBe(true);
    });

    it('PARA items, tags, recent activity and capture content', async () => {
      const c = await connect();
      const p = await call(c, 'create_para_item', { category: 'projects', label: `Shed ${kind}`, description: 'Build a shed' });
      expect(p.data).toMatchObject({ category: 'projects', label: `Shed ${kind}`, status: 'active' });
      const listed = await call(c, 'list_para', { category: 'projects' });
      expect(listed.data.data.map((x: { id: string }) => x.id)).toContain(p.data.id);
      await call(c, 'create_node', { title: `Shed roof ${kind}`, content: 'Felt roofing.', tags: ['diy'], para_item_ids: [p.data.id] });
      const tags = await call(c, 'list_tags');
      expect(tags.data.data).toContainEqual({ name: 'diy', count: expect.any(Number) });
      expect(tags.text).toMatch(/- diy \(\d+\)/);

      const cap = await call(c, 'capture', { note: `# Shed paint ${kind}\nUse a breathable paint.` });
      let st = await call(c, 'capture_status', { id: cap.data.id });
      for (let i = 0; i < 100 && st.data.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        st = await call(c, 'capture_status', { id: cap.data.id });
      }
      const content = await call(c, 'read_capture_content', { id: cap.data.id });
      expect(content.text).toMatch(/breathable paint/);
      const raw = await call(c, 'read_capture_content', { id: cap.data.id, format: 'raw' });
      expect(raw.text).toMatch(/# Shed paint/);

      const act = await call(c, 'recent_activity', { days: 1 });
      expect(act.data.nodes.map((n: { title: string }) => n.title)).toContain(`Shed roof ${kind}`);
      expect(act.data.captures.map((x: { id: string }) => x.id)).toContain(cap.data.id);
      expect(act.text).toMatch(/^Activity since /);
      const none = await call(c, 'recent_activity', { since: '2999-01-01T00:00:00Z' });
      expect(none.data.nodes).toEqual([]);
    });

    it('nodes and PARA items are resources; resources/list pages; prompts render', async () => {
      const c = await connect();
      const templates = (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
      expect(templates).toEqual(['rhizome://nodes/{id}', 'rhizome://para/{id}']);
      for (let i = 0; i < 55; i++) await call(c, 'create_node', { title: `Bulk ${kind} ${i}` });
      const first = await c.listResources();
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await c.listResources({ cursor: first.nextCursor });
      const uris = [...first.resources, ...second.resources].map((r) => r.uri);
      expect(new Set(uris).size).toBe(uris.length);
      expect(uris.some((u) => u.startsWith('rhizome://para/'))).toBe(true);
      const nodeUri = first.resources.find((r) => r.uri.startsWith('rhizome://nodes/'))!.uri;
      const read = await c.readResource({ uri: nodeUri });
      expect(read.contents[0]).toMatchObject({ uri: nodeUri, mimeType: 'text/markdown' });
      expect(String((read.contents[0] as { text?: string }).text)).toMatch(/^---\nid: nod_/);
      await expect(c.readResource({ uri: 'rhizome://nodes/nod_missing' })).rejects.toThrow(/not found/i);
      await expect(c.listResources({ cursor: 'garbage' })).rejects.toThrow();

      const item = (await call(c, 'create_para_item', { category: 'projects', label: `Pond ${kind}` })).data;
      await call(c, 'create_node', { title: `Pond liner ${kind}`, content: 'EPDM lasts.', para_item_ids: [item.id] });
      const para = await c.readResource({ uri: `rhizome://para/${item.id}` });
      expect(String((para.contents[0] as { text?: string }).text)).toMatch(new RegExp(`# Pond ${kind}[\\s\\S]*\\[Pond liner ${kind}\\]\\(rhizome://nodes/nod_`));

      const prompts = (await c.listPrompts()).prompts.map((x) => x.name).sort();
      expect(prompts).toEqual(['answer-from-notes', 'summarise_project', 'weekly_review']);
      const review = await c.getPrompt({ name: 'weekly_review', arguments: { days: '7' } });
      expect(JSON.stringify(review.messages)).toMatch(/Pond liner/);
      const summary = await c.getPrompt({ name: 'summarise_project', arguments: { project: item.slug } });
      expect(JSON.stringify(summary.messages)).toMatch(/EPDM lasts/);
      await expect(c.getPrompt({ name: 'summarise_project', arguments: { project: 'no such thing' } })).rejects.toThrow();
    });
  });
}
