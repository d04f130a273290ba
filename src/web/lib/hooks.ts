// Data loading for pages: keeps the last good data while reloading, exposes the API error
// (so a page can show the server's problem detail) and can poll.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload: () => Promise<void>;
  setData: (d: T) => void;
}

export function useApi<T>(path: string | null, opts: { pollMs?: number | ((d: T | undefined) => number | null); keepPrevious?: boolean } = {}): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const seq = useRef(0);
  const pathRef = useRef(path);
  pathRef.current = path;

  const load = useCallback(async () => {
    const p = pathRef.current;
    if (p === null) return;
    const mine = ++seq.current;
    setLoading(true);
    try {
      const d = await api.get<T>(p);
      if (mine !== seq.current) return;
      setData(d);
      setError(null);
    } catch (e) {
      if (mine !== seq.current) return;
      setError(asApiError(e));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    // Search keeps showing the previous results while the next ones load (no flicker).
    if (!opts.keepPrevious) setData(undefined);
    setError(null);
    void load();
  }, [path]);

  const poll = opts.pollMs;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!poll || path === null || loading) return;
    const every = typeof poll === 'function' ? poll(data) : poll;
    if (!every) return;
    const t = setTimeout(() => {
      // A hidden tab does not poll; it checks again later.
      if (document.visibilityState === 'visible') void load().then(() => setTick((n) => n + 1));
      else setTick((n) => n + 1);
    }, every);
    return () => clearTimeout(t);
  }, [data, error, path, loading, tick]);

  return { data, error, loading, reload: load, setData };
}

export function asApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError(0, 'client_error', e instanceof Error ? e.message : String(e), '');
}

/** Runs an action, tracking busy state and the error it raised. */
export function useAction<A extends unknown[], R>(fn: (...a: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (...a: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn(...a);
    } catch (e) {
      setError(asApiError(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}

/** Ticks every second while `active`; for countdowns. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}
