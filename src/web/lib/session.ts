// Who the dashboard is signed in as, kept in localStorage so a reload (or another tab)
// stays signed in. Bearer sessions refresh themselves a minute before the access token
// expires and whenever the API answers 401; refresh tokens rotate and a reused one kills
// the whole session server-side, so tabs take a Web Lock and re-read storage before
// refreshing: only one tab ever spends a given refresh token.
export type Session =
  | { kind: 'apikey'; key: string }
  | { kind: 'bearer'; access: string; refresh: string; expiresAt: number };

const KEY = 'rhizome.session';
const REFRESH_EARLY_MS = 60_000;
type Listener = (s: Session | null) => void;
const listeners = new Set<Listener>();
let signOutReason: string | null = null;

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Session;
    if (s.kind === 'apikey' && typeof s.key === 'string') return s;
    if (s.kind === 'bearer' && typeof s.refresh === 'string') return s;
  } catch {
    /* unreadable storage means signed out */
  }
  return null;
}

export function saveSession(s: Session | null, reason?: string): void {
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  if (!s && reason) signOutReason = reason;
  notify(s);
}

/** Why the last session ended (shown once on the sign-in page). */
export function takeSignOutReason(): string | null {
  const r = signOutReason;
  signOutReason = null;
  return r;
}

export function onSessionChange(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function notify(s: Session | null) {
  schedule(s);
  for (const fn of listeners) fn(s);
}

export function bearerFrom(t: { access_token: string; refresh_token: string; expires_in: number }): Session {
  return { kind: 'bearer', access: t.access_token, refresh: t.refresh_token, expiresAt: Date.now() + t.expires_in * 1000 };
}

let inflight: Promise<Session | null> | null = null;

/** Exchanges the refresh token for new tokens; resolves to null when the session is over. */
export function refreshSession(): Promise<Session | null> {
  inflight ??= withLock(async () => {
    const before = loadSession();
    if (!before || before.kind !== 'bearer') return before;
    // Another tab may have refreshed while we waited for the lock.
    if (before.expiresAt - Date.now() > REFRESH_EARLY_MS) return before;
    let res: Response;
    try {
      res = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: before.refresh }),
      });
    } catch {
      return before; // offline: keep the session, try again later
    }
    if (res.ok) {
      const next = bearerFrom(await res.json());
      saveSession(next);
      return next;
    }
    if (res.status === 400 || res.status === 401) {
      saveSession(null, 'Your session has ended. Please sign in again.');
      return null;
    }
    return before;
  }).finally(() => {
    inflight = null;
  });
  return inflight;
}

/** True when the access token is missing or about to expire. */
export function needsRefresh(s: Session): boolean {
  return s.kind === 'bearer' && s.expiresAt - Date.now() <= REFRESH_EARLY_MS;
}

/** Forces the next refresh regardless of the stored expiry (after a 401). */
export function markExpired(): void {
  const s = loadSession();
  if (s?.kind === 'bearer') localStorage.setItem(KEY, JSON.stringify({ ...s, expiresAt: 0 }));
}

function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request('rhizome-refresh', fn) as Promise<T>) : fn();
}

let timer: ReturnType<typeof setTimeout> | undefined;
function schedule(s: Session | null) {
  clearTimeout(timer);
  if (s?.kind !== 'bearer') return;
  const wait = Math.max(1000, s.expiresAt - Date.now() - REFRESH_EARLY_MS);
  timer = setTimeout(() => void refreshSession(), Math.min(wait, 2 ** 31 - 1));
}

/** Starts the refresh timer and follows sign-in/out in other tabs. */
export function startSession(): void {
  schedule(loadSession());
  window.addEventListener('storage', (e) => {
    if (e.key === KEY || e.key === null) {
      const s = loadSession();
      schedule(s);
      for (const fn of listeners) fn(s);
    }
  });
}
