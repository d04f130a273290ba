// Where the Rhizome server is and which API key to use, kept in extension storage
// (never in a web page's context).
import { ext } from './browser.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:7777';

export interface Settings {
  serverUrl: string;
  apiKey: string;
}

export async function loadSettings(): Promise<Settings> {
  const s = await ext.storage.local.get(['serverUrl', 'apiKey']);
  return {
    serverUrl: typeof s.serverUrl === 'string' && s.serverUrl ? s.serverUrl : DEFAULT_SERVER,
    apiKey: typeof s.apiKey === 'string' ? s.apiKey : '',
  };
}

export async function saveSettings(s: Settings): Promise<void> {
  await ext.storage.local.set({ serverUrl: s.serverUrl, apiKey: s.apiKey });
}

/** `http://host:port` from what the user typed; null when it is not an http(s) URL. */
export function normaliseServerUrl(input: string): string | null {
  try {
    const u = new URL(input.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * The host-permission pattern for the server's host. Firefox match patterns cannot name a
 * port, so the pattern covers the host on any port (Chromium treats it the same way).
 */
export function originPattern(serverUrl: string): string {
  const u = new URL(serverUrl);
  return `${u.protocol}//${u.hostname}/*`;
}
