// The search page's "Updated" filter: presets relative to today, or a From–To range of
// local calendar days, turned into GET /nodes' updated_after (inclusive) and
// updated_before (exclusive) instants.
export const DATE_PRESETS = [
  { value: '1d', label: 'Past day', days: 1 },
  { value: '7d', label: 'Past week', days: 7 },
  { value: '30d', label: 'Past month', days: 30 },
  { value: '365d', label: 'Past year', days: 365 },
  { value: 'range', label: 'Between dates…', days: 0 },
] as const;

const DAY = 86_400_000;

/** Local midnight of a YYYY-MM-DD day, as an ISO instant (null when not a date). */
function localMidnight(day: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function dateRange(when: string, from: string, to: string, now = Date.now()): { after?: string; before?: string } {
  if (when === 'range') return { after: localMidnight(from), before: localMidnight(to, 1) };
  const preset = DATE_PRESETS.find((p) => p.value === when);
  if (!preset?.days) return {};
  return { after: new Date(now - preset.days * DAY).toISOString() };
}
