// `rhizome login --provider NAME [--device]` and the server-side half of `rhizome logout`.
import { loginWithBrowser, loginWithDevice, openUrl, revokeStoredSession } from '../../client/oidc-login.js';
import { SessionStore } from '../../client/session.js';
import { loadConfig } from '../../config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { print } from '../ui.js';

function config() {
  try {
    return loadConfig();
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), EXIT.usage);
  }
}

export async function loginWithProvider(provider: string, opts: { device?: boolean }): Promise<void> {
  const c = config();
  const store = new SessionStore(c.clientConfigDir);
  const o = {
    apiUrl: c.apiUrl,
    provider,
    store,
    fetch: (input: string, init?: RequestInit) => fetch(input, init),
    now: Date.now,
    say: (line: string) => void process.stderr.write(line + '\n'),
    open: (url: string) => openUrl(url, c.openUrlCommand),
  };
  await (opts.device ? loginWithDevice(o) : loginWithBrowser(o));
  print(`Signed in to ${c.apiUrl} with ${provider}; session saved in ${store.file}.`);
}

/** Revokes the stored session's refresh-token family at the server (before it is forgotten). */
export async function revokeSession(): Promise<void> {
  const c = config();
  await revokeStoredSession({ apiUrl: c.apiUrl, store: new SessionStore(c.clientConfigDir), fetch: (i, init) => fetch(i, init) });
}
