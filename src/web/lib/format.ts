// Small display helpers.
const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export function ago(isoTime: string | null | undefined): string {
  if (!isoTime) return '—';
  const t = Date.parse(isoTime);
  if (Number.isNaN(t)) return isoTime;
  const s = Math.round((t - Date.now()) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 30 * 86400) return rtf.format(Math.round(s / 86400), 'day');
  return new Date(t).toLocaleDateString();
}

export function fullTime(isoTime: string | null | undefined): string {
  if (!isoTime) return '';
  const t = Date.parse(isoTime);
  return Number.isNaN(t) ? isoTime : new Date(t).toLocaleString();
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function duration(seconds: number): string {
  const m = Math.floor(seconds / 60), s = seconds % 60;
  return m ? `${m}:${String(s).padStart(2, '0')}` : `${s}s`;
}

export function humanize(word: string): string {
  return word.replace(/_/g, ' ');
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
