// Front-matter dates come in many spellings. Each is read as a point in time and returned
// as ISO 8601 UTC; a date or time without a zone is taken as UTC, so the same file always
// imports to the same instant whatever the server's time zone.
const ISO_LIKE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const DAY_FIRST = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date | null {
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  // Reject rollovers such as 2024-02-31.
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return t;
}

function fromIsoLike(m: RegExpExecArray): Date | null {
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  const base = utc(+y, +mo, +d, h ? +h : 0, mi ? +mi : 0, s ? +s : 0, ms);
  if (!base || (h && +h > 23) || (mi && +mi > 59) || (s && +s > 60)) return null;
  if (!zone || zone.toUpperCase() === 'Z') return base;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return new Date(base.getTime() - offsetMin * 60_000);
}

function fromEpoch(n: number): Date | null {
  if (!Number.isFinite(n) || n <= 0) return null;
  // Ten digits or fewer are seconds (until 2286), more are milliseconds.
  const d = new Date(n < 1e11 ? n * 1000 : n);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** ISO 8601 UTC for a front-matter date value, or null when it is not a date. */
export function parseLooseDate(value: unknown): string | null {
  let d: Date | null = null;
  if (value instanceof Date) d = Number.isNaN(value.getTime()) ? null : value;
  else if (typeof value === 'number') d = fromEpoch(value);
  else if (typeof value === 'string') {
    const s = value.trim();
    if (!s) return null;
    const iso = ISO_LIKE.exec(s);
    const dayFirst = DAY_FIRST.exec(s);
    if (iso) d = fromIsoLike(iso);
    else if (dayFirst) d = utc(+dayFirst[3], +dayFirst[2], +dayFirst[1]);
    else if (/^\d{9,13}$/.test(s)) d = fromEpoch(Number(s));
    else if (/[a-z]/i.test(s)) {
      // Written-out forms ("March 5, 2024", "Tue, 05 Mar 2024 10:00:00 GMT"): the
      // platform parser handles these; a zone-less result is re-read as UTC.
      const hasZone = /(?:gmt|utc|z|[+-]\d{2}:?\d{2})\s*$/i.test(s);
      const t = Date.parse(hasZone ? s : `${s} UTC`);
      d = Number.isNaN(t) ? null : new Date(t);
    }
  }
  return d ? d.toISOString() : null;
}
