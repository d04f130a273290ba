// Who the dashboard is signed in as, kept in localStorage so a reload (or another tab)
// stays signed in. Bearer sessions refresh themselves a minute before the access token
// expires and whenever the API answers 401; refresh tokens rotate and a reused one kills
// the whole session server-side, so only one tab ever spends a given refresh token:
// tabs take a Web Lock before refreshing, and the tab that spends a token also holds a
// lock named after it for a while. Web Locks live in the browser process, so the tab that
// gets the refresh lock next sees that marker at once, even when its copy of
// localStorage has not yet received the new tokens (Chromium delivers storage writes to
// other tabs asynchronously); it then waits for them instead of spending the dead token.
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
const SPENT_HOLD_MS = 30_000;
const SPENT_WAIT_MS = 5_000;

/**
 * Exchanges the refresh token for new tokens; resolves to null when the session is over.
 * `rejected` is an access token the API has just refused: refresh even if the stored
 * expiry says it is fresh, unless another tab has already replaced it.
 */
export function refreshSession(rejected?: string): Promise<Session | null> {
  inflight ??= withLock(async () => {
    const before = await settled(loadSession());
    if (before?.kind !== 'bearer') return before;
    // Another tab may have refreshed while we waited for the lock.
    const fresh = rejected !== undefined ? before.access !== rejected : before.expiresAt - Date.now() > REFRESH_EARLY_MS;
    if (fresh) return before;
    const spent = await markSpent(before.refresh);
    let res: Response;
    try {
      res = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: before.refresh }),
      });
    } catch {
      spent.release();
      return before; // offline: keep the session, try again later
    }
    if (res.ok) {
      const next = bearerFrom(await res.json());
      saveSession(next);
      spent.releaseLater();
      return next;
    }
    spent.release();
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

function lockManager(): LockManager | undefined {
  return (navigator as Navigator & { locks?: LockManager }).locks;
}

function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = lockManager();
  return locks ? (locks.request('rhizome-refresh', fn) as Promise<T>) : fn();
}

const spentName = (refresh: string) => 'rhizome-spent:' + refresh.slice(-24);

/** Holds a lock saying this tab is spending (or has spent) this refresh token. */
async function markSpent(refresh: string): Promise<{ release(): void; releaseLater(): void }> {
  const locks = lockManager();
  if (!locks) return { release() {}, releaseLater() {} };
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await new Promise<void>((granted) => {
    void locks.request(spentName(refresh), () => {
      granted();
      return held;
    });
  });
  return { release, releaseLater: () => setTimeout(release, SPENT_HOLD_MS) };
}

/**
 * The session as it really is: while another tab holds the marker for this session's
 * refresh token, our copy of localStorage is behind, so wait until the new tokens (or
 * the sign-out) arrive.
 */
async function settled(s: Session | null): Promise<Session | null> {
  const locks = lockManager();
  if (!locks || s?.kind !== 'bearer') return s;
  const { held = [] } = await locks.query();
  const name = spentName(s.refresh);
  if (!held.some((l) => l.name === name)) return s;
  const until = Date.now() + SPENT_WAIT_MS;
  for (;;) {
    const now = loadSession();
    if (now?.kind !== 'bearer' || now.refresh !== s.refresh || Date.now() > until) return now;
    await new Promise((r) => setTimeout(r, 20));
  }
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
