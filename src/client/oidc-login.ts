// `rhizome login --provider NAME`: sign-in with an identity provider from the CLI.
// Browser: a one-shot listener on 127.0.0.1 and an ephemeral port (RFC 8252) receives the
// server's one-time hand-off code, which is exchanged with a PKCE verifier only this
// process knows. Device (--device): the server runs RFC 8628 with the provider; the CLI
// shows the code and polls. Either way the session is stored 0600 as magic-link login does.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { RhizomeApiError, RhizomeConnectionError } from './errors.js';
import type { FetchLike } from './auth.js';
import type { SessionStore } from './session.js';

export interface OidcLoginOptions {
  apiUrl: string;
  provider: string;
  store: SessionStore;
  fetch: FetchLike;
  now: () => number;
  /** Messages for the person at the terminal (stderr). */
  say: (line: string) => void;
  /** Opens a URL in a browser (RHIZOME_OPEN_URL_COMMAND or the platform's opener). */
  open: (url: string) => void;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

interface Pair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const base = (apiUrl: string) => `${apiUrl.replace(/\/+$/, '')}/api/v1`;

async function call(o: OidcLoginOptions, path: string, init?: RequestInit): Promise<Response> {
  try {
    return await o.fetch(base(o.apiUrl) + path, init);
  } catch (e) {
    throw new RhizomeConnectionError(o.apiUrl, e);
  }
}

const postJson = (o: OidcLoginOptions, path: string, body: unknown) =>
  call(o, path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });

async function checkProvider(o: OidcLoginOptions): Promise<{ label: string; device: boolean }> {
  const res = await call(o, '/auth/oidc/providers');
  if (!res.ok) throw await RhizomeApiError.fromResponse(res);
  const list = ((await res.json()) as { data: Array<{ name: string; label: string; device: boolean }> }).data;
  const p = list.find((x) => x.name === o.provider);
  if (!p) {
    const names = list.map((x) => x.name).join(', ');
    throw new RhizomeApiError(404, 'not_found', `The server has no identity provider "${o.provider}"${names ? ` (it has: ${names})` : ' configured'}`);
  }
  return p;
}

function save(o: OidcLoginOptions, pair: Pair): void {
  o.store.save(o.apiUrl, { access_token: pair.access_token, refresh_token: pair.refresh_token, access_expires_at: o.now() + pair.expires_in * 1000 });
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;max-width:36em;margin:4em auto"><h1>${title}</h1><p>${text.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;

/** Browser sign-in through a loopback redirect. */
export async function loginWithBrowser(o: OidcLoginOptions): Promise<void> {
  const p = await checkProvider(o);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(24).toString('base64url');
  const server = createServer();
  await new Promise<void>((r, j) => server.once('error', j).listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const redirect = `http://127.0.0.1:${port}/callback`;
  const code = new Promise<string>((resolve, reject) => {
    server.on('request', (req, res) => {
      const u = new URL(req.url ?? '/', redirect);
      if (u.pathname !== '/callback' || u.searchParams.get('state') !== state) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
      }
      const error = u.searchParams.get('oidc_error');
      const got = u.searchParams.get('oidc_code');
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      if (got) {
        res.end(page('Signed in to Rhizome', 'You can close this window and return to the terminal.'));
        resolve(got);
      } else {
        res.end(page('Sign-in refused', error ?? 'No sign-in code was received.'));
        reject(new RhizomeApiError(401, 'unauthorized', error ?? 'No sign-in code was received'));
      }
    });
  });
  const timeout = new Promise<never>((_, reject) => {
    const t = setTimeout(() => reject(new RhizomeApiError(408, 'timeout', 'No sign-in within the time allowed; run `rhizome login --provider` again')), o.timeoutMs ?? 5 * 60_000);
    t.unref();
  });
  try {
    const q = new URLSearchParams({ client: 'cli', redirect_uri: redirect, state, code_challenge: challenge });
    const url = `${base(o.apiUrl)}/auth/oidc/${encodeURIComponent(o.provider)}/start?${q}`;
    o.say(`Opening your browser to sign in with ${p.label}. If it does not open, visit:\n\n  ${url}\n`);
    o.open(url);
    const handoff = await Promise.race([code, timeout]);
    const res = await postJson(o, '/auth/oidc/exchange', { code: handoff, code_verifier: verifier });
    if (!res.ok) throw await RhizomeApiError.fromResponse(res);
    save(o, (await res.json()) as Pair);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Device authorization grant: for a machine without a browser. */
export async function loginWithDevice(o: OidcLoginOptions): Promise<void> {
  const p = await checkProvider(o);
  if (!p.device) throw new RhizomeApiError(400, 'validation_failed', `${p.label} does not offer device sign-in; run \`rhizome login --provider ${o.provider}\` on a machine with a browser`);
  const res = await call(o, `/auth/oidc/${encodeURIComponent(o.provider)}/device`, { method: 'POST' });
  if (!res.ok) throw await RhizomeApiError.fromResponse(res);
  const d = (await res.json()) as { device_id: string; user_code: string; verification_uri: string; verification_uri_complete?: string; interval: number; expires_in: number };
  o.say(`To sign in with ${p.label}, visit\n\n  ${d.verification_uri_complete ?? d.verification_uri}\n\nand enter the code ${d.user_code} (valid ${Math.round(d.expires_in / 60)} minutes).\n`);
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = o.now() + d.expires_in * 1000;
  let interval = d.interval;
  while (o.now() < deadline) {
    await sleep(interval * 1000);
    const poll = await postJson(o, '/auth/oidc/device/poll', { device_id: d.device_id });
    if (poll.status === 202) {
      interval = Math.max(interval, ((await poll.json()) as { interval: number }).interval);
      continue;
    }
    if (!poll.ok) throw await RhizomeApiError.fromResponse(poll);
    save(o, (await poll.json()) as Pair);
    return;
  }
  throw new RhizomeApiError(408, 'timeout', 'The device code expired before the sign-in was approved');
}

/** Opens a URL: the configured command (given the URL as its last argument) or the platform's opener. */
export function openUrl(url: string, command: string | undefined): void {
  const [cmd, args] = command
    ? ['/bin/sh', ['-c', `${command} "$1"`, 'sh', url]]
    : process.platform === 'darwin' ? ['open', [url]]
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]]
    : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {}); // no opener: the URL was printed
    child.unref();
  } catch {
    /* the URL was printed */
  }
}

/** Sign-out: the server revokes the session's refresh-token family; then the local copy goes. */
export async function revokeStoredSession(o: { apiUrl: string; store: SessionStore; fetch: FetchLike }): Promise<boolean> {
  const s = o.store.get(o.apiUrl);
  if (!s) return false;
  try {
    await o.fetch(`${base(o.apiUrl)}/auth/logout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: s.refresh_token }),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    /* offline: the local session is forgotten anyway and expires on its own */
  }
  return true;
}
