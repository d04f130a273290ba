// Asking the notes end to end with the real bundled model, through a real server: the CLI
// (footnotes, --json, filters), MCP's `ask` tool (the cited passages) and its
// `answer-from-notes` prompt, and a paraphrased question answered by meaning.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, startChildServer, type ChildServer } from '../clients/server.js';

let srv: ChildServer;
let env: Record<string, string>;
const ids: Record<string, string> = {};
beforeAll(async () => {
  srv = await startChildServer();
  env = srv.env({ RHIZOME_TOKEN: srv.apiKey });
  const notes: Array<[string, string, string, string[]]> = [
    ['boiler', 'Boiler maintenance', 'The boiler was serviced in October.\n\nThe pressure gauge should read between 1 and 1.5 bar when the system is cold. Top it up with the filling loop.', ['home']],
    ['compost', 'Compost heap', 'A hot compost pile reaches sixty degrees within a week. Turn it every few days.', ['garden']],
    ['tyres', 'Bike tyres', 'Road tyres run at 6 to 7 bar. The gravel tyres run at 2.5 bar.', ['bike']],
    ['tax', 'Quarterly tax filing', 'Estimated taxes are due every three months, on the 15th.', ['money']],
  ];
  for (const [k, title, content, tags] of notes) {
    const r = await runCli(['node', 'add', title, '-c', content, '--tag', tags.join(','), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    ids[k] = JSON.parse(r.stdout).id;
  }
  // Wait for the background embedding (the real model) to reach every note.
  for (let i = 0; i < 120; i++) {
    const h = JSON.parse((await runCli(['health', '--json'], env)).stdout);
    if ((h.server.jobs?.queued ?? 0) === 0 && h.server.embedding?.state === 'ready') break;
    await new Promise((r) => setTimeout(r, 500));
  }
}, 180_000);
afterAll(async () => {
  await srv?.stop();
});

it('rhizome ask prints the answer with footnotes, and --json the whole result', async () => {
  const r = await runCli(['ask', 'what', 'pressure', 'should', 'the', 'boiler', 'gauge', 'read?'], env);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^The pressure gauge should read between 1 and 1\.5 bar when the system is cold\. \[1\]/);
  expect(r.stdout).toMatch(new RegExp(`^\\[1\\] Boiler maintenance \\[${ids.boiler}\\]: "`, 'm'));

  const j = await runCli(['ask', 'what pressure should the tyres be at', '--tag', 'bike', '--json'], env);
  const out = JSON.parse(j.stdout);
  expect(out).toMatchObject({ mode: 'extractive', abstained: false });
  expect(out.citations.map((c: { node_id: string }) => c.node_id)).toEqual([ids.tyres]);

  const none = await runCli(['ask', 'who won the chess tournament in Reykjavik'], env);
  expect(none.code).toBe(0);
  expect(none.stdout).toMatch(/^Your notes don't say\./);
  expect(none.stdout).not.toMatch(/^\[1\]/m);
  // A question sharing one word with a note is not answered by it.
  const one = JSON.parse((await runCli(['ask', 'When was the chess club boiler room tournament rescheduled by the federation?', '--json'], env)).stdout);
  expect(one).toMatchObject({ abstained: true, citations: [] });
  expect(one.maybe_related.map((m: { node_id: string }) => m.node_id)).toContain(ids.boiler);
}, 60_000);

it('answers a paraphrase by meaning with the real model', async () => {
  const r = JSON.parse((await runCli(['ask', 'How warm does my pile of garden waste get?', '--json'], env)).stdout);
  expect(r.abstained).toBe(false);
  expect(r.citations[0].node_id).toBe(ids.compost);
  expect(r.answer).toContain('sixty degrees');
}, 60_000);

it("MCP: `ask` returns the cited passages; `answer-from-notes` hands them to the agent with the rules", async () => {
  const c = new Client({ name: 'rhizome-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { requestInit: { headers: { Authorization: `ApiKey ${srv.apiKey}` } } }));
  try {
    const r = (await c.callTool({ name: 'ask', arguments: { question: 'When are estimated taxes due?' } })) as CallToolResult;
    const text = r.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
    expect(text).toMatch(new RegExp(`^\\[1\\] Quarterly tax filing \\[${ids.tax}\\]`));
    expect(text).toContain('Estimated taxes are due every three months');
    expect((r.structuredContent as { citations: Array<{ node_id: string }> }).citations[0].node_id).toBe(ids.tax);

    const filtered = (await c.callTool({ name: 'ask', arguments: { question: 'When are estimated taxes due?', tags: ['garden'] } })) as CallToolResult;
    expect((filtered.content[0] as { text: string }).text).toMatch(/^Your notes don't say\./);

    const p = await c.getPrompt({ name: 'answer-from-notes', arguments: { question: 'When are estimated taxes due?' } });
    const msg = (p.messages[0].content as { text: string }).text;
    expect(msg).toContain('[1] Quarterly tax filing');
    expect(msg).toMatch(/cite the passage\(s\) it comes from as \[n\]/);
  } finally {
    await c.close();
  }
}, 60_000);
