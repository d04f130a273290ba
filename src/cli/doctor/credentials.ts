// The credentials check: which server and key the CLI would use from this folder, and
// whether that server accepts them.
import type { Config } from '../../config.js';
import { RhizomeClient } from '../../client/client.js';
import type { Check } from './checks.js';

export async function checkCredentials(config: Config): Promise<Check> {
  const client = RhizomeClient.fromConfig(config);
  const kind = client.auth.kind;
  if (kind === 'none') {
    return { ok: false, label: `no credentials for ${client.apiUrl}`, fix: 'start the server once (`rhizome serve` writes them), set RHIZOME_TOKEN, or run `rhizome login`' };
  }
  const what = kind === 'session' ? 'a login session' : 'an API key';
  try {
    await client.tags();
    return { ok: true, label: `credentials: ${what} accepted by ${client.apiUrl}` };
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 401) return { ok: false, label: `credentials: ${what} refused by ${client.apiUrl}`, fix: 'set RHIZOME_TOKEN to a valid key or run `rhizome login`' };
    return { ok: true, label: `credentials: ${what} for ${client.apiUrl} (server not reachable now, not checked)`, fix: 'start the server: `rhizome serve`' };
  }
}
