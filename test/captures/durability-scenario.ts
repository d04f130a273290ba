// kill -9 the real server while captures are queued and being processed, restart it on the
// same data, and every acknowledged capture completes exactly once, with exactly one node.
// Run on SQLite (durability.e2e.test.ts) and on PostgreSQL (test/postgres/server.test.ts):
// `env` names the database (RHIZOME_DATABASE_URL) when it is not the data folder's file.
import { expect } from 'vitest';
import { articleHtml } from '../fixtures/generate.js';
import { credentials, startServer, tempDataDir, type ChildServer } from '../helpers/server-process.js';
import { fixtureSite, type Site } from './helpers.js';

/** A local site whose /slow pages keep capture jobs in flight when the process dies. */
export async function slowSite(): Promise<Site> {
  const site = await fixtureSite();
  site.routes.set('/slow', (req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(articleHtml({ title: `Page ${req.url}` })), 250));
  return site;
}

export async function killMidProcessingScenario(site: Site, extraEnv: Record<string, string> = {}): Promise<void> {
  const env = { RHIZOME_ALLOW_PRIVATE_FETCH: '1', RHIZOME_LOG: 'info', ...extraEnv };
  const dir = tempDataDir();
  let server: ChildServer | undefined = await startServer(dir, 0, env);
  try {
    const auth = { Authorization: `ApiKey ${credentials(dir).api_key}`, 'content-type': 'application/json' };
    const acked: string[] = [];
    const post = async (i: number, base: string) => {
      const body = i % 2 === 0
        ? { title: `Article ${i}`, content_type: 'article', url: site.url(`/slow?n=${i}`), source: 'api' }
        : { title: `Note ${i}`, content_type: 'note', selected_text: `Note number ${i} about compost and soil.`, source: 'cli' };
      const res = await fetch(`${base}/api/v1/captures`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      if (res.status === 201) acked.push((await res.json()).id);
    };
    for (let i = 0; i < 16; i++) await post(i, server.url);
    // More posts race the kill: only the ones answered 201 count as acknowledged.
    const racing = Array.from({ length: 8 }, (_, i) => post(100 + i, server!.url).catch(() => undefined));
    const before = await (await fetch(`${server.url}/api/v1/captures?per_page=100`, { headers: auth })).json();
    await server.kill();
    await Promise.all(racing);
    const unfinished = before.data.filter((c: { status: string }) => c.status !== 'completed').length;
    expect(unfinished).toBeGreaterThan(0); // the kill really landed mid-work

    server = await startServer(dir, 0, env);
    const deadline = Date.now() + 240_000; // generous: the machine may be busy with other suites
    let list: { data: Array<{ id: string; status: string; node_id: string | null }>; total: number };
    for (;;) {
      list = await (await fetch(`${server.url}/api/v1/captures?per_page=100`, { headers: auth })).json();
      if (list.data.every((c) => c.status === 'completed' || c.status === 'failed')) break;
      if (Date.now() > deadline) throw new Error(`captures still unfinished: ${JSON.stringify(list.data.map((c) => c.status))}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const byId = new Map(list.data.map((c) => [c.id, c]));
    for (const id of acked) expect(byId.get(id)?.status, id).toBe('completed');
    const nodeIds = list.data.map((c) => c.node_id);
    expect(new Set(nodeIds).size).toBe(list.total);
    const nodes = await (await fetch(`${server.url}/api/v1/nodes?per_page=100`, { headers: auth })).json();
    expect(nodes.total).toBe(list.total); // one node per capture: none lost, none doubled
    for (const id of acked) {
      const activity = await (await fetch(`${server.url}/api/v1/captures/${id}/activity`, { headers: auth })).json();
      expect(activity.data.filter((e: { kind: string }) => e.kind === 'completed'), id).toHaveLength(1);
    }
    expect(server.stdout() + server.stderr()).toMatch(/resuming \d+ job/);
  } finally {
    await server?.stop();
  }
}
