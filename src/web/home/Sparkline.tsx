// A small line chart of one daily counter: days on x (gaps stay gaps), the value on y, the
// last point marked. Described in words for screen readers.
export interface Point {
  day: string; // YYYY-MM-DD
  value: number;
}

const DAY = 86_400_000;
const W = 150;
const H = 32;
const PAD = 3;

export function Sparkline({ points, label, days, format = String, tone = 'accent', second }: {
  points: Point[];
  label: string;
  days: number;
  format?: (v: number) => string;
  tone?: 'accent' | 'danger' | 'warn';
  /** A second series drawn under the first (captures and their failures). */
  second?: { points: Point[]; tone: 'danger' | 'warn'; label: string };
}) {
  if (points.length === 0) return null;
  const end = Date.parse(points[points.length - 1].day);
  const start = end - (days - 1) * DAY;
  const all = [...points, ...(second?.points ?? [])].map((p) => p.value);
  const lo = Math.min(0, ...all);
  const hi = Math.max(...all, lo + 1);
  const x = (day: string) => PAD + ((Date.parse(day) - start) / Math.max(DAY, end - start)) * (W - 2 * PAD);
  const y = (v: number) => H - PAD - ((v - lo) / (hi - lo)) * (H - 2 * PAD);
  const path = (ps: Point[]) => ps.map((p, i) => `${i ? 'L' : 'M'}${x(p.day).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
  const last = points[points.length - 1];
  const first = points[0];
  const words =
    points.length === 1
      ? `${label}: ${format(last.value)} today; history starts today`
      : `${label}: ${format(first.value)} on ${first.day}, ${format(last.value)} on ${last.day}`;
  const secondWords = second?.points.length ? `; ${second.label}: ${format(second.points[second.points.length - 1].value)}` : '';
  return (
    <svg class={`spark spark-${tone}`} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={words + secondWords}>
      <title>{words + secondWords}</title>
      {points.length > 1 && <path class="spark-area" d={`${path(points)}L${x(last.day).toFixed(1)},${H - PAD}L${x(first.day).toFixed(1)},${H - PAD}Z`} />}
      {second && second.points.length > 1 && <path class={`spark-line spark-${second.tone}`} d={path(second.points)} />}
      {points.length > 1 && <path class="spark-line" d={path(points)} />}
      <circle class="spark-dot" cx={x(last.day)} cy={y(last.value)} r="2.5" />
    </svg>
  );
}
