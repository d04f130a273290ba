// DNS-rebinding protection for the HTTP transport (the MCP specification requires it): the
// Host header must name this server, and a browser's Origin, when sent, must be one of its
// own origins. Allowed: loopback names, the bound host, RHIZOME_PUBLIC_URL's host, and
// RHIZOME_ALLOWED_HOSTS. Anything else is refused before authentication.
import type { Config } from '../config.js';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export function allowedHostnames(config: Pick<Config, 'host' | 'publicUrl'> & { allowedHosts?: readonly string[] }): Set<string> {
  const names = new Set(LOOPBACK);
  if (!WILDCARD.has(config.host)) names.add(config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host);
  names.add(new URL(config.publicUrl).hostname);
  for (const h of config.allowedHosts ?? []) names.add(h.toLowerCase());
  return new Set([...names].map((n) => n.toLowerCase()));
}

/** The hostname of a Host header value (`name:port`, `[v6]:port`), or null when malformed. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Why the request is refused, or null when Host and Origin are ours. */
export function rebindingRefusal(allowed: Set<string>, host: string | undefined, origin: string | undefined): string | null {
  const name = host ? hostnameOf(host) : null;
  if (!name || !allowed.has(name)) return `Host ${host ?? '(none)'} is not allowed`;
  if (origin !== undefined) {
    let oname: string | null = null;
    try {
      const u = new URL(origin);
      if (u.protocol === 'http:' || u.protocol === 'https:') oname = u.hostname.toLowerCase();
    } catch {
      /* "null" or garbage */
    }
    if (!oname || !allowed.has(oname)) return `Origin ${origin} is not allowed`;
  }
  return null;
}
