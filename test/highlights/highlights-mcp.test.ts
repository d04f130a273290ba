// The MCP tools over highlights, through /mcp in-process: an agent highlights a passage with
// a note and lists the node's highlights back.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => (t = await makeTestApp()));
afterEach(() => t.close());

describe('MCP highlight tools', () => {
  it('highlight adds a passage with a note; list_highlights reads them back', async () => {
    const node = await (await t.req('POST', '/api/v1/nodes', { title: 'Soil', content: 'Soil is alive. Compost feeds the soil.' })).json();
    const c = new Client({ name: 't', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      requestInit: { headers: { Authorization: `ApiKey ${t.key}` } },
      fetch: async (url, init) => t.app.request(String(url), init as RequestInit),
    }));
    const made = (await c.callTool({ name: 'highlight', arguments: { node_id: node.id, text: 'Compost feeds the soil', note: 'the point', color: 'green' } })) as CallToolResult;
    expect(made.isError).toBeFalsy();
    const listed = (await c.callTool({ name: 'list_highlights', arguments: { node_id: node.id } })) as CallToolResult;
    expect((listed.content[0] as { text: string }).text).toBe('> Compost feeds the soil\n  note: the point');
    expect((listed.structuredContent as { highlights: Array<{ color: string }> }).highlights[0].color).toBe('green');
    const missing = (await c.callTool({ name: 'list_highlights', arguments: { node_id: 'nod_none' } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    await c.close();
  });
});
