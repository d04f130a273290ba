// /mcp inside the app (no child process): a bearer session works like an API key, an
// expired access token is refused, GET is 405; and the client/MCP layers only import downward.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { ROOT } from './server.js';

describe('/mcp in-process', () => {
  let t: TestApp;
  beforeEach(async () => (t = await makeTestApp()));
  afterEach(() => t.close());

  const connect = async (authorization: string) => {
    const c = new Client({ name: 't', version: '1' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
        requestInit: { headers: { Authorization: authorization } },
        fetch: async (url, init) => t.app.request(String(url), init as RequestInit),
      }),
    );
    return c;
  };

  it('accepts a bearer session like the API and refuses it once expired', async () => {
    await t.s.auth.addUser('ada@example.com', 'alpha');
    await t.s.auth.requestMagicLink('ada@example.com');
    const token = /paste this token into `rhizome login`: (\S+)/.exec(t.log.lines.join('\n'))![1];
    const pair = await t.s.auth.verifyMagicLink(token);
    const c = await connect(`Bearer ${pair.access_token}`);
    const made = (await c.callTool({ name: 'create_node', arguments: { title: 'Via bearer' } })) as CallToolResult;
    expect(made.isError).toBeFalsy();
    const listed = await t.req('GET', '/api/v1/nodes');
    expect((await listed.json()).data.map((n: { title: string }) => n.title)).toContain('Via bearer');
    await c.close();

    t.clock.advance(16 * 60 * 1000);
    await expect(connect(`Bearer ${pair.access_token}`)).rejects.toThrow();
  });

  it('GET /mcp is 405 with Allow: POST; without credentials 401', async () => {
    const get = await t.req('GET', '/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const anon = await t.req('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, null);
    expect(anon.status).toBe(401);
  });
});

describe('layering', () => {
  const importsOf = (dir: string) =>
    readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts')).flatMap((f) =>
      [...readFileSync(join(ROOT, dir, f), 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => `${dir}/${f}: ${m[1]}`));

  it('the client depends on nothing server-side; MCP tools only on the client', () => {
    expect(importsOf('src/client').filter((i) => /\.\.\/(services|repos|db|http|jobs|mcp|cli)\//.test(i))).toEqual([]);
    expect(importsOf('src/mcp').filter((i) => /\.\.\/(services|repos|db|http|jobs|cli)\//.test(i))).toEqual([]);
  });
});
