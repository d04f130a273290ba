// Helpers for the dashboard's browser tests beyond harness.ts: an axe-core pass, the
// documentation screenshots (1280×800 and 390×844, light and dark) and the bundle walk.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { ROOT, distinctColours } from './harness.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const DOC_SHOTS = join(ROOT, 'docs/screenshots');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Serious and critical axe-core violations on the page as it is now (WCAG 2.x A/AA rules). */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the dashboard's CSP (script-src 'self') rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export const VIEWPORTS = [
  { tag: 'desktop', width: 1280, height: 800 },
  { tag: 'phone', width: 390, height: 844 },
] as const;

/**
 * The four documentation screenshots of one page: desktop and phone, light and dark, each
 * after `ready` says the page has settled; each also gets an axe-core pass.
 */
export async function docShots(page: Page, name: string, ready: (page: Page) => Promise<void>): Promise<{ files: string[]; violations: Record<string, AxeViolation[]> }> {
  mkdirSync(DOC_SHOTS, { recursive: true });
  const files: string[] = [];
  const violations: Record<string, AxeViolation[]> = {};
  for (const vp of VIEWPORTS) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.emulateMedia({ colorScheme: scheme });
      await ready(page);
      // A theme switch runs the CSS colour transitions: shoot (and check contrast) once they end.
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      const file = join(DOC_SHOTS, `${name}-${vp.tag}-${scheme}.png`);
      const png = await page.screenshot({ path: file });
      if (distinctColours(png) < 8) throw new Error(`${file}: nothing visible was drawn`);
      files.push(file);
      const v = await axeSerious(page);
      if (v.length) violations[`${vp.tag}-${scheme}`] = v;
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return { files, violations };
}
