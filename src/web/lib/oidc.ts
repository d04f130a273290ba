// Identity-provider sign-in for the dashboard: the provider list, the hand-off code the
// server puts in the fragment after the provider's redirect, and sign-out (which revokes
// the refresh-token family at the server and remembers which provider to offer logout at).
import { api } from './api.js';
import { bearerFrom, loadSession, saveSession } from './session.js';

export interface OidcProvider {
  name: string;
  label: string;
  start_url: string;
  logout: boolean;
  available: boolean;
}

const LAST = 'rhizome.oidc-provider';

export async function listProviders(): Promise<OidcProvider[]> {
  try {
    return (await api.get<{ data: OidcProvider[] }>('/auth/oidc/providers', { anonymous: true })).data;
  } catch {
    return []; // an older server, or none configured: the other ways to sign in remain
  }
}

/** Where a provider button goes; `returnTo` is a dashboard route such as `/search`. */
export function startUrl(p: OidcProvider, returnTo?: string): string {
  const q = new URLSearchParams({ client: 'web' });
  if (returnTo && /^\/(?![/\\])/.test(returnTo)) q.set('return_to', returnTo);
  return `${p.start_url}?${q}`;
}

/** The one-time code from `#/login?oidc_code=…` → Rhizome tokens, stored as any bearer session. */
export async function finishSignIn(code: string): Promise<void> {
  const pair = await api.post<{ access_token: string; refresh_token: string; expires_in: number; provider: string }>('/auth/oidc/exchange', { code }, { anonymous: true });
  localStorage.setItem(LAST, pair.provider);
  saveSession(bearerFrom(pair));
}

/** Revokes the session at the server (bearer sessions), then forgets it. */
export async function signOut(): Promise<void> {
  const s = loadSession();
  if (s?.kind === 'bearer') {
    await fetch('/api/v1/auth/logout', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: s.refresh }) }).catch(() => undefined);
  } else {
    localStorage.removeItem(LAST);
  }
  saveSession(null, 'You signed out.');
}

/** The provider the last session came from, for "also sign out of {provider}". */
export function lastProvider(): string | null {
  return localStorage.getItem(LAST);
}

export function forgetLastProvider(): void {
  localStorage.removeItem(LAST);
}

export function providerLogoutUrl(name: string): string {
  return `/api/v1/auth/oidc/${encodeURIComponent(name)}/logout`;
}
