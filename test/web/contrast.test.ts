// The README promises WCAG AA text contrast in both themes: check every text/background
// pair the stylesheet uses against the variables it actually defines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './harness.js';

const css = readFileSync(join(ROOT, 'src/web/styles.css'), 'utf8');

function vars(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
}
const light = vars(css.slice(css.indexOf(':root {'), css.indexOf('@media (prefers-color-scheme: dark)')));
const dark = { ...light, ...vars(css.slice(css.indexOf('@media (prefers-color-scheme: dark)'), css.indexOf('*, *::before'))) };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function ratio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// [text, background] as the stylesheet combines them.
const PAIRS: Array<[string, string]> = [
  ['text', 'bg'], ['text', 'surface'], ['text-muted', 'bg'], ['text-muted', 'surface'], ['text-muted', 'surface-2'],
  ['accent-text', 'surface'], ['accent-text', 'accent-weak'], ['on-accent', 'accent'],
  ['info', 'info-weak'], ['violet', 'violet-weak'], ['ok', 'ok-weak'], ['warn', 'warn-weak'],
  ['danger', 'danger-weak'], ['danger', 'surface'], ['bg', 'text'],
];

describe('contrast', () => {
  for (const [theme, v] of [['light', light], ['dark', dark]] as const) {
    it(`meets 4.5:1 for every text colour on its background (${theme})`, () => {
      const low = PAIRS.map(([fg, bg]) => ({ pair: `${fg} on ${bg}`, ratio: ratio(v[fg], v[bg]) })).filter((p) => !(p.ratio >= 4.5));
      expect(low).toEqual([]);
    });
  }
});
