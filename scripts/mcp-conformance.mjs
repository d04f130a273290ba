#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs
// Node >= 22, fetched by npx) against a fresh Rhizome server's /mcp.
//
// The suite sends no credentials, and /mcp requires them like the API does, so the suite
// talks to a small local relay that adds this throwaway server's API key (from its
// credentials file) and passes every other header through untouched — Host and Origin
// included, so the DNS-rebinding scenario reaches the server's own check.
//
//   npm run test:mcp-conformance                 # the scenarios Rhizome must pass
//   npm run test:mcp-conformance -- --all        # the whole active suite
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SUITE = '@modelcontextprotocol/conformance@0.1.16';
// resources-templates-read is not here: it reads the suite's own fixture template
// (test://template/{id}/data), as the other failing scenarios need its fixture tools,
// prompts and resources (test images, audio, sampling, elicitation, logging, subscriptions).
export const REQUIRED = [
  'server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list', 'prompts-list', 'dns-rebinding-protection',
];
const all = process.argv.includes('--all');
const PORT = Number(process.env.CONFORMANCE_PORT ?? 7849);

const dataDir = mkdtempSync(join(tmpdir(), 'rhizome-conformance-'));
spawnSync(process.execPath, [join(ROOT, 'build.mjs')], { stdio: 'inherit' });
const server = spawn(process.execPath, [join(ROOT, 'bin/rhizome.js'), 'serve'], {
  env: { ...process.env, RHIZOME_DATA_DIR: dataDir, RHIZOME_PORT: String(PORT), RHIZOME_HOST: '127.0.0.1', RHIZOME_LOG: 'error' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  relay?.close();
};
let relay;
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));

for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) break;
  } catch {
    /* not yet */
  }
  if (i > 300 || server.exitCode !== null) {
    stop();
    throw new Error('the server did not start');
  }
  await new Promise((r) => setTimeout(r, 200));
}
const key = JSON.parse(readFileSync(join(dataDir, 'credentials'), 'utf8')).api_key;

relay = createServer((req, res) => {
  const headers = { ...req.headers };
  headers.authorization ??= `ApiKey ${key}`;
  const up = httpRequest({ host: '127.0.0.1', port: PORT, method: req.method, path: req.url, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
});
await new Promise((r) => relay.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${relay.address().port}/mcp`;

const run = (scenario) =>
  new Promise((done) => {
    const args = ['-y', '-p', 'node@22', '-p', SUITE, 'conformance', 'server', '--url', url, ...(scenario ? ['--scenario', scenario] : [])];
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on('close', (code) => done({ code, out }));
  });

let failed = 0;
if (all) failed = (await run()).code === 0 ? 0 : 1;
else for (const s of REQUIRED) if ((await run(s)).code !== 0) failed++;
stop();
if (!all) console.log(`\n${REQUIRED.length - failed}/${REQUIRED.length} required scenarios passed`);
process.exit(failed ? 1 : 0);
