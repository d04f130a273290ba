// Dates in a question: "in March 2023", "last May", "in 2022", "since June", "last week",
// "between January and March 2024". chrono-node reads the expressions (absolute, relative
// to now, casual); what it leaves (bare years, decades, a month name without a year taken
// as the latest one before now, "last <month>") is read here, and every match becomes a
// half-open range [after, before) in UTC at the precision that was said: a day, a month, a
// year. "since"/"after" open the end, "before"/"until" the start. The question comes back
// without its date words, so the rest is ranked as text. Pure functions.
import * as chrono from 'chrono-node';

export interface DateRange {
  /** ISO 8601 UTC, inclusive; absent: open. */
  after?: string;
  /** ISO 8601 UTC, exclusive; absent: open. */
  before?: string;
  /** The words that said it, as written. */
  said: string;
}

export interface QueryDates {
  /** The question without its date expression (from the first date to the last, and the preposition before it). */
  text: string;
  range: DateRange | null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const OPEN_END = /\b(since|after)\s*$/i;
const OPEN_START = /\b(before|until|till|prior to)\s*$/i;
/**
 * Words without which no date can be said (digits, month and weekday names, the relative
 * words chrono reads): a text with none of them is not handed to chrono. Its regular
 * expressions are large; V8 compiles them to machine code on their second use, a ~0.3 s
 * stall of the event loop once per process, which a plain query ("compost") must not pay
 * (the lock test caught it).
 */
const MAY_SAY_A_DATE =
  /\d|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|today|tonight|tomorrow|yesterday|now|noon|midnight|ago|weekends?|morning|afternoon|evening|night|seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|quarters?|years?|decades?|centur(?:y|ies))\b/i;

/** A span reaching back to now: "last 3 months", "past several years", "previous couple of weeks". */
const LAST_SPAN = /\b(last|past|previous)\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several|couple(\s+of)?)\s+(days?|weeks?|months?|years?)\b/i;
const LEADING_PREP = /\b((in|on|during|over|within|of|from|since|after|before|until|till|around|at|between|prior to)\s+)?(the\s+)?$/i;

interface Found {
  index: number;
  length: number;
  start: Date;
  end: Date;
}

/** Reads the date expressions of a question, relative to `now`. */
export function parseQueryDates(question: string, now: Date): QueryDates {
  if (!MAY_SAY_A_DATE.test(question)) return { text: question, range: null };
  const found: Found[] = [];
  const taken = (i: number, n: number) => found.some((f) => i < f.index + f.length && f.index < i + n);

  for (const r of chrono.parse(question, { instant: now, timezone: 'UTC' }, { forwardDate: false })) {
    const s = r.start;
    // A time of day ("at night", "now", "from 4") says no period to look in.
    if (!s.isCertain('day') && !s.isCertain('month') && !s.isCertain('year') && !s.isCertain('weekday')) continue;
    if (/^(right )?now$/i.test(r.text.trim())) continue;
    if (/^today$/i.test(r.text.trim()) && /^['’]s\b/.test(question.slice(r.index + r.text.length))) continue; // "today's libraries": the present in general
    const year = s.get('year') ?? now.getUTCFullYear();
    const month = (s.get('month') ?? 1) - 1;
    let start: Date;
    let end: Date;
    if (r.end) {
      start = r.start.date();
      end = r.end.date();
    } else if (LAST_SPAN.test(r.text)) {
      // "the past two years", "the last few weeks": from that far back until now (chrono
      // gives only the far end, a day or a year on its own).
      start = r.start.date();
      end = now;
    } else if (s.isCertain('day') || s.isCertain('hour')) {
      start = utc(year, month, s.get('day') ?? 1);
      end = utc(year, month, (s.get('day') ?? 1) + 1);
      if (/\bweek\b/i.test(r.text)) end = new Date(Math.max(end.getTime(), r.start.date().getTime() + 7 * 86_400_000));
    } else if (s.isCertain('month')) {
      // A month without a year is the latest one not after now (chrono would look ahead).
      const y = s.isCertain('year') ? year : month > now.getUTCMonth() ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
      start = utc(y, month, 1);
      end = utc(y, month + 1, 1);
    } else {
      start = utc(year, 0, 1);
      end = utc(year + 1, 0, 1);
    }
    found.push({ index: r.index, length: r.text.length, start, end });
  }

  // "last May": the latest May before this month.
  for (const m of question.matchAll(new RegExp(`\\blast\\s+(${MONTHS.join('|')})\\b`, 'gi'))) {
    if (taken(m.index!, m[0].length)) continue;
    const month = MONTHS.indexOf(m[1].toLowerCase());
    const y = month >= now.getUTCMonth() ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
    found.push({ index: m.index!, length: m[0].length, start: utc(y, month, 1), end: utc(y, month + 1, 1) });
  }
  // Bare years and decades after a word that makes them a time: "in 2022", "the 1990s",
  // "before 2020" (not "JPEG 2000", "ISO 23008-12:2017").
  for (const m of question.matchAll(/\b(?:in|during|since|from|before|after|until|till|by|around|of|the|early|late|mid)[\s-]+(1[89]\d\d|20\d\d)(s)?\b/gi)) {
    const at = m.index! + m[0].length - m[1].length - (m[2]?.length ?? 0);
    if (taken(at, m[0].length)) continue;
    const y = Number(m[1]);
    if (y > now.getUTCFullYear() + 1) continue; // a version number, a count: not a date to look in
    const span = m[2] ? 10 : 1;
    found.push({ index: at, length: m[1].length + (m[2]?.length ?? 0), start: utc(y, 0, 1), end: utc(y + span, 0, 1) });
  }
  if (found.length === 0) return { text: question, range: null };

  found.sort((a, b) => a.index - b.index);
  const first = found[0];
  // Two dates make one period only when joined as one ("January and March 2024", "2019 to
  // 2021"); otherwise the first date said is the period.
  const joined = found.length > 1 && /^\s*(and|to|-|–|through|until|till)\s*$/i.test(question.slice(first.index + first.length, found[1].index));
  const last = joined ? found[1] : first;
  // "between January and March 2024": a start said without its year takes the end's.
  while (joined && first.start >= last.end) {
    first.start = new Date(Date.UTC(first.start.getUTCFullYear() - 1, first.start.getUTCMonth(), first.start.getUTCDate()));
  }
  const before = question.slice(0, first.index);
  const range: DateRange = { after: first.start.toISOString(), before: last.end.toISOString(), said: question.slice(first.index, last.index + last.length) };
  if (OPEN_END.test(before)) delete range.before;
  else if (OPEN_START.test(before)) {
    range.before = first.start.toISOString();
    delete range.after;
  }
  const text = (question.slice(0, first.index).replace(LEADING_PREP, '') + question.slice(last.index + last.length))
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.!,])/g, '$1')
    .trim();
  return { text, range };
}

function utc(y: number, m: number, d: number): Date {
  return new Date(Date.UTC(y, m, d));
}

/** Whether an ISO instant lies in a range. */
export function inRange(at: string | null | undefined, r: Pick<DateRange, 'after' | 'before'>): boolean {
  if (!at) return false;
  return (!r.after || at >= r.after) && (!r.before || at < r.before);
}

/** At most this many dates are kept from one text (a diary of daily entries keeps its first). */
export const MAX_MENTIONED_DATES = 50;
/** Dates are read from this much of a text: where the note says when it is about. */
const MENTION_SCAN_CHARS = 20_000;

/**
 * The dates a text mentions, as data: each as precise as it was said — 'YYYY-MM-DD',
 * 'YYYY-MM' or 'YYYY' — read relative to `ref` (the note's own date: "yesterday" in a note
 * of 3 May 2023 is 2023-05-02). A weekday or time alone says too little and is left out.
 */
export function mentionedDates(text: string, ref: Date): string[] {
  const out = new Set<string>();
  const scan = text.slice(0, MENTION_SCAN_CHARS);
  if (!MAY_SAY_A_DATE.test(scan)) return [];
  for (const r of chrono.parse(scan, { instant: ref, timezone: 'UTC' }, { forwardDate: false })) {
    const s = r.start;
    const d = s.date();
    const y = String(s.get('year') ?? d.getUTCFullYear()).padStart(4, '0');
    const m = String(s.get('month') ?? d.getUTCMonth() + 1).padStart(2, '0');
    const day = String(s.get('day') ?? d.getUTCDate()).padStart(2, '0');
    const relative = !s.isCertain('year') && !s.isCertain('month') && s.isCertain('day'); // "yesterday", "last Friday"
    if (s.isCertain('day') && (s.isCertain('month') || relative)) out.add(`${y}-${m}-${day}`);
    else if (s.isCertain('month') && s.isCertain('year')) out.add(`${y}-${m}`);
    if (out.size >= MAX_MENTIONED_DATES) break;
  }
  for (const m of scan.matchAll(/\b(?:in|during|since|of)\s+(1[89]\d\d|20\d\d)\b/g)) {
    if (out.size >= MAX_MENTIONED_DATES) break;
    if (![...out].some((x) => x.startsWith(m[1]))) out.add(m[1]);
  }
  return [...out];
}

/** Whether a mentioned date ('YYYY-MM-DD', 'YYYY-MM' or 'YYYY') overlaps a range. */
export function mentionInRange(mention: string, r: Pick<DateRange, 'after' | 'before'>): boolean {
  const [y, m, d] = mention.split('-').map(Number);
  const start = new Date(Date.UTC(y, (m ?? 1) - 1, d ?? 1));
  const end = d ? new Date(Date.UTC(y, m - 1, d + 1)) : m ? new Date(Date.UTC(y, m, 1)) : new Date(Date.UTC(y + 1, 0, 1));
  return (!r.after || end.toISOString() > r.after) && (!r.before || start.toISOString() < r.before);
}
