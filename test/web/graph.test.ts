// The graph explorer (#/graph) end to end: a real server, real Chromium (WebGL through
// SwiftShader), real clicks. First a small graph for colour, filters, search-to-focus,
// click-to-open and re-fit; then 5,000 nodes and 15,000 links for time to first frame and
// frame rate while panning and zooming (printed as JSON, never asserted as a speed).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';
import { axeSerious, docShots } from './kit.js';

const s = e2eSuite();

const ready = async (page: import('playwright-core').Page) => {
  await page.waitForFunction(() => (window.__rhizomeGraph?.first_frame_ms ?? 0) > 0);
  await page.waitForTimeout(400);
};

describe('graph explorer', () => {
  it('colours, filters, finds, focuses and opens nodes, and re-fits on resize', async () => {
    const garden = (await s.api<{ id: string }>('POST', '/para', { category: 'projects', label: 'Garden' })).body.id;
    const bread = (await s.api<{ id: string }>('POST', '/para', { category: 'areas', label: 'Baking' })).body.id;
    const ids: string[] = [];
    const titles = ['Compost heap', 'Raised beds', 'Seed saving', 'Tomato blight', 'Rainwater butts', 'Sourdough starter', 'Rye loaf', 'Oven temperatures', 'Flour types', 'Crop rotation'];
    for (const [i, title] of titles.entries()) {
      const body = { title, tags: i < 5 ? ['garden', 'outdoors'] : ['kitchen'], para_item_ids: [i < 5 ? garden : bread], status: i % 3 === 0 ? 'validated' : 'raw' };
      ids.push((await s.api<{ id: string }>('POST', '/nodes', i === 9 ? { title, tags: [] } : body)).body.id);
    }
    const link = (a: number, targets: number[]) => s.api('PATCH', `/nodes/${ids[a]}/links`, { links: targets.map((t) => ({ target_id: ids[t], type: 'related' })) });
    await link(0, [1, 2, 3, 9]);
    await link(5, [6, 7, 8]);
    await link(4, [1]);

    const page = await s.signedInPage({ width: 1280, height: 800 });
    // The layout runs in a worker loaded from the dashboard's own files (a blob: worker is
    // refused by the page's CSP, which the harness turns into a failure), and it answers.
    const workers: string[] = [];
    const layoutMessages = page.waitForEvent('worker').then((w) => (workers.push(w.url()), w));
    await page.goto('/');
    await page.getByRole('link', { name: 'Graph', exact: true }).click();
    await ready(page);
    await layoutMessages;
    expect(workers[0]).toMatch(/\/assets\/fa2-worker-[A-Z0-9]{8}\.js$/);
    // Loaded as its own chunk: sigma is not in the main bundle (see bundle.test.ts too).
    expect(await page.locator('.explorer-canvas canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.explorer-foot .hint').textContent()).toContain('10 nodes · 8 links');
    const legend = page.getByRole('list', { name: 'Colours by PARA item' });
    await legend.getByText('Garden').waitFor();
    await legend.getByText('no PARA item').waitFor();

    await page.getByLabel('Colour by').selectOption('tag');
    await page.getByRole('list', { name: 'Colours by tag' }).getByText('#kitchen').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('validated');
    // Validated: nodes 0, 3 and 6 (node 9 was created without a status).
    await expect.poll(() => page.locator('.explorer-foot .hint').textContent()).toContain('3 of 10 nodes');
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('PARA', { exact: true }).selectOption({ label: 'Baking' });
    await expect.poll(() => page.locator('.explorer-foot .hint').textContent()).toContain('4 of 10 nodes');
    await page.getByLabel('PARA', { exact: true }).selectOption('');
    await page.getByLabel('Tag', { exact: true }).selectOption('garden');
    await expect.poll(() => page.locator('.explorer-foot .hint').textContent()).toContain('5 of 10 nodes');
    await page.getByLabel('Tag', { exact: true }).selectOption('');

    // Search-to-focus from the keyboard: type, Enter focuses the best match.
    // The layout stops by itself after its time budget: on a busy machine it may already have
    // (the button then reads "Run layout"); either way it is still before the search.
    await page.getByRole('button', { name: 'Pause layout' }).click({ timeout: 2_000 }).catch(() => {});
    await page.getByRole('button', { name: 'Run layout' }).waitFor();
    await page.getByRole('searchbox', { name: 'Find a node' }).fill('compost');
    await page.getByRole('searchbox', { name: 'Find a node' }).press('Enter');
    await page.locator('.explorer-focus', { hasText: 'Compost heap' }).waitFor();
    await page.waitForTimeout(700); // the camera glides to it
    await docShots(page, 'graph-small', ready).then((r) => expect(r.violations).toEqual({}));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(400);

    // Click to open: the focused node sits at the centre of the canvas.
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.getByRole('searchbox', { name: 'Find a node' }).fill('Compost');
    await page.locator('#graph-hits').getByRole('button', { name: 'Compost heap' }).click();
    await page.waitForTimeout(800);
    const box = (await page.locator('.explorer-canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByRole('heading', { name: 'Compost heap', level: 1 }).waitFor();

    // Re-fit on resize: the canvas follows its container (the phone view is not clipped).
    await page.goBack();
    await ready(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => {
      const c = document.querySelector('.explorer-canvas canvas') as HTMLCanvasElement;
      return Math.abs(c.getBoundingClientRect().width - document.querySelector('.explorer-canvas')!.getBoundingClientRect().width);
    })).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeSerious(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('draws a node\'s neighbourhood with readable labels, fits a phone without a reload, opens a neighbour', async () => {
    const hub = (await s.api<{ id: string }>('POST', '/nodes', { title: 'Field notes on urban beekeeping', content: 'Hives on roofs.' })).body.id;
    const around: string[] = [];
    for (let i = 0; i < 14; i++) {
      around.push((await s.api<{ id: string }>('POST', '/nodes', { title: `Beekeeping topic ${i}: swarm behaviour, queen rearing and varroa treatment` })).body.id);
    }
    await s.api('PATCH', `/nodes/${hub}/links`, { links: around.map((t, i) => ({ target_id: t, type: i % 2 ? 'related' : 'supports' })) });
    await s.api('PATCH', `/nodes/${around[0]}/links`, { links: [{ target_id: around[1], type: 'related' }] });
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto(`/#/nodes/${hub}`);
    await expect.poll(() => page.locator('.graph-figure figcaption').textContent(), { timeout: 30_000 }).toContain('14 nodes within two hops');
    const overlapping = async () => {
      const boxes = await page.evaluate(() => (window as unknown as { __rhizomeHood: { labelBoxes(): Array<{ id: string; x: number; y: number; w: number; h: number }> } }).__rhizomeHood.labelBoxes());
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) out.push(`${a.id} × ${b.id}`);
      }
      return { shown: boxes.length, out };
    };
    await page.waitForTimeout(400);
    const desk = await overlapping();
    expect(desk.shown).toBeGreaterThan(2);
    expect(desk.out).toEqual([]);
    await docShots(page, 'node', async (p) => {
      await p.locator('.graph canvas').first().waitFor();
      await p.waitForTimeout(500);
    }).then((r) => expect(r.violations).toEqual({}));
    // The phone: the canvas follows its panel at once (it used to stay clipped until a reload).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => {
      const c = document.querySelector('.graph canvas') as HTMLCanvasElement;
      return Math.abs(c.getBoundingClientRect().width - document.querySelector('.graph')!.getBoundingClientRect().width);
    })).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.waitForTimeout(400);
    expect((await overlapping()).out).toEqual([]);
    // Every label drawn lies wholly inside the panel: none is cut at its edge ("Com…").
    const clipped = await page.evaluate(() => {
      const { width, height } = document.querySelector('.graph')!.getBoundingClientRect();
      const boxes = (window as unknown as { __rhizomeHood: { labelBoxes(): Array<{ id: string; x: number; y: number; w: number; h: number }> } }).__rhizomeHood.labelBoxes();
      return { shown: boxes.length, out: boxes.filter((b) => b.x < 0 || b.y < 0 || b.x + b.w > width + 0.5 || b.y + b.h > height + 0.5).map((b) => `${b.id} at ${Math.round(b.x)}+${Math.round(b.w)} of ${Math.round(width)}`) };
    });
    expect(clipped.shown).toBeGreaterThan(2);
    expect(clipped.out).toEqual([]);
    await screenshot(page, 'node-neighbourhood-phone');
    // Clicking the centre of the panel hits the node itself (nothing happens); a neighbour opens.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(500);
    const target = await page.evaluate(() => (window as unknown as { __rhizomeHood: { labelBoxes(): Array<{ id: string; x: number; y: number; h: number }> } }).__rhizomeHood.labelBoxes().find((b) => b.id !== undefined && b.x > 0));
    const box = (await page.locator('.graph').boundingBox())!;
    const label = (await page.evaluate(() => (window as unknown as { __rhizomeHood: { labelBoxes(): Array<{ id: string; x: number; y: number; h: number }> } }).__rhizomeHood.labelBoxes()));
    const neighbour = label.find((b) => b.id !== hub)!;
    expect(target).toBeTruthy();
    // The node's disc sits just left of its label.
    await page.mouse.click(box.x + neighbour.x - 6, box.y + neighbour.y + neighbour.h / 2);
    await page.waitForURL(new RegExp(`#/nodes/${neighbour.id}$`));
    await page.context().close();
  }, 120_000);

  it('stays interactive at 5,000 nodes and 15,000 links', async () => {
    const paras: string[] = [];
    for (const label of ['Research', 'Writing', 'Health', 'Home', 'Travel', 'Reading', 'Work', 'Music']) {
      paras.push((await s.api<{ id: string }>('POST', '/para', { category: 'areas', label })).body.id);
    }
    const db = new Database(join(s.server.dataDir, 'rhizome.db'));
    db.pragma('busy_timeout = 10000');
    const tid = db.prepare(`SELECT id FROM tenants WHERE name = 'default'`).pluck().get() as string;
    const N = 5000, L = 15000, CLUSTERS = 16;
    let seed = 7;
    // A 32-bit LCG in integer arithmetic (a float product past 2^53 would cycle early).
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = ['soil', 'memory', 'river', 'protein', 'budget', 'violin', 'bridge', 'neuron', 'glacier', 'market', 'poem', 'lens', 'orbit', 'cell', 'tax', 'clay'];
    const now = new Date().toISOString();
    db.transaction(() => {
      const ins = db.prepare(`INSERT INTO nodes (id, tenant_id, title, tags, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
      const para = db.prepare(`INSERT INTO node_para (tenant_id, node_id, para_item_id, source, created_at) VALUES (?, ?, ?, 'user', ?)`);
      for (let i = 0; i < N; i++) {
        const c = i % CLUSTERS;
        ins.run(`big-${i}`, tid, `${words[c]} ${words[(i * 7) % 16]} note ${i}`, JSON.stringify([words[c], words[(c + 3) % 16]]), i % 4 === 0 ? 'validated' : 'raw', now, now);
        if (c < paras.length) para.run(tid, `big-${i}`, paras[c], now);
      }
      const link = db.prepare(`INSERT OR IGNORE INTO links (tenant_id, source_id, target_id, type, created_at) VALUES (?, ?, ?, 'related', ?)`);
      let made = 0;
      for (let tries = 0; made < L; tries++) {
        if (tries > L * 20) throw new Error(`only ${made} distinct links after ${tries} tries`);
        const a = Math.floor(rnd() * N);
        // Mostly within a cluster, sometimes across.
        const b = rnd() < 0.85 ? (Math.floor(rnd() * (N / CLUSTERS)) * CLUSTERS + (a % CLUSTERS)) % N : Math.floor(rnd() * N);
        if (a === b) continue;
        if (link.run(tid, `big-${a}`, `big-${b}`, now).changes) {
          link.run(tid, `big-${b}`, `big-${a}`, now);
          made++;
        }
      }
    })();
    db.close();

    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/');
    await page.getByRole('region', { name: 'Graph health' }).waitFor();
    const t0 = Date.now();
    await page.getByRole('link', { name: 'Graph', exact: true }).click();
    await page.waitForFunction(() => (window.__rhizomeGraph?.first_frame_ms ?? 0) > 0 && window.__rhizomeGraph!.nodes >= 5000, undefined, { timeout: 60_000 });
    const clickToFirstFrame = Date.now() - t0;
    const stats = await page.evaluate(() => ({ ...window.__rhizomeGraph!, renders: undefined }));
    expect(stats.nodes).toBeGreaterThanOrEqual(5000); // with the first test, its ten nodes too
    expect(stats.edges).toBeGreaterThanOrEqual(15_000);

    // Interactive: a click on "Zoom in" gets its frame promptly while the layout runs.
    const inputLatency = await page.evaluate(async () => {
      const t = performance.now();
      (document.querySelector('button[aria-label="Zoom in"]') as HTMLButtonElement).click();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t;
    });

    // Frame rate while dragging and wheel-zooming for three seconds, layout running.
    const box = (await page.locator('.explorer-canvas').boundingBox())!;
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[] };
      w.__frames = [];
      const tick = (t: number) => (w.__frames.push(t), w.__frames.length < 100_000 && requestAnimationFrame(tick));
      requestAnimationFrame(tick);
      window.__rhizomeGraph!.renders.length = 0;
    });
    const start = Date.now();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    while (Date.now() - start < 3000) {
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
      await page.mouse.up();
      await page.mouse.wheel(0, -240);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
      await page.mouse.wheel(0, 240);
    }
    const frames = await page.evaluate(() => {
      const f = (window as unknown as { __frames: number[] }).__frames;
      const r = [...window.__rhizomeGraph!.renders].sort((a, b) => a - b);
      const gaps = f.slice(1).map((t, i) => t - f[i]).sort((a, b) => a - b);
      const q = (a: number[], p: number) => (a.length ? a[Math.min(a.length - 1, Math.floor(a.length * p))] : 0);
      return { fps: (f.length - 1) / ((f[f.length - 1] - f[0]) / 1000), frame_gap_p95_ms: q(gaps, 0.95), render_ms_median: q(r, 0.5), render_ms_p95: q(r, 0.95), renders: r.length, layout_running: window.__rhizomeGraph!.layout_running };
    });
    const report: Record<string, unknown> = {
      bench: 'graph-explorer', nodes: stats.nodes, links: stats.edges, fetch_ms: Math.round(stats.fetch_ms), build_ms: Math.round(stats.build_ms),
      first_frame_ms_from_navigation: Math.round(stats.first_frame_ms), click_to_first_frame_ms: clickToFirstFrame,
      input_to_frame_ms: Math.round(inputLatency), ...frames, fps: Math.round(frames.fps * 10) / 10,
      render_ms_median: Math.round(frames.render_ms_median * 10) / 10, render_ms_p95: Math.round(frames.render_ms_p95 * 10) / 10,
      renderer: await page.evaluate(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const d = gl?.getExtension('WEBGL_debug_renderer_info');
        return d ? String(gl!.getParameter(d.UNMASKED_RENDERER_WEBGL)).slice(0, 60) : 'unknown';
      }),
    };
    console.log(JSON.stringify(report));
    expect(frames.renders).toBeGreaterThan(10);
    await page.waitForFunction(() => !window.__rhizomeGraph!.layout_running, undefined, { timeout: 30_000 });
    // Labels: only some are drawn at this zoom (by degree, one per grid cell), and no two of
    // them overlap, zoomed out and zoomed in.
    for (const step of ['fit', 'zoom']) {
      if (step === 'fit') await page.getByRole('button', { name: 'Fit' }).click();
      else for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForTimeout(900);
      const boxes = await page.evaluate(() => window.__rhizomeGraphView!.labelBoxes());
      expect(boxes.length, step).toBeGreaterThan(3);
      expect(boxes.length, step).toBeLessThan(stats.nodes);
      const overlaps: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) overlaps.push(`${a.id} × ${b.id}`);
        }
      }
      expect(overlaps, `${step}: ${boxes.length} labels`).toEqual([]);
      report[`labels_${step}`] = boxes.length;
    }
    console.log(JSON.stringify({ bench: 'graph-labels', fit: report.labels_fit, zoomed: report.labels_zoom }));
    const shots = await docShots(page, 'graph', async (p) => {
      await p.getByRole('button', { name: 'Fit' }).click();
      await p.waitForTimeout(700);
    });
    expect(shots.violations).toEqual({});
    await page.context().close();
  }, 240_000);
});
