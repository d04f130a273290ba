// The node editor end to end: CodeMirror with a live preview (lazy-loaded), `[[` completion
// that becomes a typed link on Ctrl-S, tag completion, pasted and dropped files uploaded as
// captures linked to the node, drafts that survive a reload and a wrong click, axe and the
// documentation screenshots. A real server process and real headless Chromium.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite } from './harness.js';
import { axeSerious, docShots } from './kit.js';
import { wikilinkTitles } from '../../src/web/editor/wikilink-complete.js';

const s = e2eSuite();

interface Link {
  target_id: string;
  type: string;
}

const editor = (page: Page) => page.locator('.cm-content');

async function nodeIdFromUrl(page: Page): Promise<string> {
  await page.waitForURL(/#\/nodes\/(?!new)[^/]+$/);
  return decodeURIComponent(page.url().split('/nodes/')[1]);
}

describe('node editor', () => {
  it('loads CodeMirror only when writing, previews live, completes [[titles]] and #tags, saves with Ctrl-S into typed links', async () => {
    const target = await s.api<{ id: string }>('POST', '/nodes', { title: 'Mycorrhizal fungi', content: 'Fungi that live on plant roots.', tags: ['biology', 'soil'] });
    await s.api('POST', '/nodes', { title: 'Soil carbon', content: 'Carbon stored in soil.', tags: ['biology'] });
    const page = await s.signedInPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/');
    await page.getByRole('region', { name: 'Graph health' }).waitFor();
    const before = scripts.length;
    await page.getByRole('link', { name: 'New node' }).first().click();
    await editor(page).waitFor();
    // The editor arrived in a chunk of its own, fetched only now.
    expect(scripts.slice(before).some((u) => /chunk-.*\.js$/.test(u))).toBe(true);
    expect(await editor(page).getAttribute('aria-label')).toBe('Content (Markdown)');

    await page.getByLabel('Title').fill('Forest soil notes');
    await editor(page).click();
    await page.keyboard.type('## Roots and threads\n\nTrees trade **sugar** with ');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Roots and threads' }).waitFor();
    await expect.poll(() => preview.locator('strong').textContent()).toBe('sugar');

    // Every keystroke asks again; the answer for the whole word is the one to pick from.
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/nodes?') && new URL(r.url()).searchParams.get('query') === 'Myco');
    await page.keyboard.type('[[Myco');
    await answered;
    const option = page.locator('.cm-tooltip-autocomplete li[aria-selected="true"]', { hasText: 'Mycorrhizal fungi' });
    await option.waitFor();
    // CodeMirror ignores Enter for 75 ms after the list changes (interactionDelay), so a list
    // that moves under the user's finger is never picked by accident: pause as a reader would.
    await page.waitForTimeout(250);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' every season.');
    await expect.poll(() => editor(page).textContent()).toContain('[[Mycorrhizal fungi]] every season.');
    await page.getByLabel('Type of the [[links]]').selectOption('supports');

    // Tags: the existing ones, with their counts, picked with the keyboard.
    const tags = page.getByLabel('Tags');
    await tags.focus();
    await page.keyboard.type('bio');
    const tagOption = page.getByRole('option', { name: /biology/ });
    await tagOption.waitFor();
    expect(await tagOption.textContent()).toContain('2');
    await page.keyboard.press('Enter');
    expect(await tags.inputValue()).toBe('biology, ');

    // Ctrl-S from inside the editor saves (the browser's own save dialog never opens).
    await editor(page).click();
    await page.keyboard.press('Control+s');
    const id = await nodeIdFromUrl(page);
    await page.getByRole('heading', { name: 'Forest soil notes', level: 1 }).waitFor();
    const node = await s.api<{ tags: string[]; body_markdown: string }>('GET', `/nodes/${id}`);
    expect(node.body.tags).toEqual(['biology']);
    expect(node.body.body_markdown).toContain('[[Mycorrhizal fungi]]');
    await expect.poll(async () => (await s.api<{ links: Link[] }>('GET', `/nodes/${id}/links`)).body.links).toEqual([{ target_id: target.body.id, type: 'supports' }]);
    const back = await s.api<{ links: Link[] }>('GET', `/nodes/${target.body.id}/links`);
    expect(back.body.links).toEqual([{ target_id: id, type: 'supported_by' }]);

    // Editing again and saving with Ctrl-S keeps the one link (no duplicate, type unchanged).
    await page.getByRole('button', { name: 'Edit' }).click();
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\nMore on [[Mycorrhizal fungi]] later.');
    await page.keyboard.press('Meta+s');
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await expect.poll(async () => (await s.api<{ body_markdown: string }>('GET', `/nodes/${id}`)).body.body_markdown).toContain('later.');
    expect((await s.api<{ links: Link[] }>('GET', `/nodes/${id}/links`)).body.links).toEqual([{ target_id: target.body.id, type: 'supports' }]);
    await page.context().close();
  }, 120_000);

  it('uploads a pasted image and a dropped file as captures, and links them to the node', async () => {
    const n = await s.api<{ id: string }>('POST', '/nodes', { title: 'Field trip', content: 'Photos from the trip.' });
    const page = await s.signedInPage();
    await page.goto(`/#/nodes/${n.body.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n');
    // A screenshot on the clipboard: a PNG drawn in the page, pasted as a ClipboardEvent.
    await editor(page).evaluate(async (el) => {
      const c = document.createElement('canvas');
      c.width = 480;
      c.height = 120;
      const g = c.getContext('2d')!;
      g.fillStyle = '#fff';
      g.fillRect(0, 0, 480, 120);
      g.fillStyle = '#000';
      g.font = 'bold 40px sans-serif';
      g.fillText('Lichen on oak bark', 20, 75);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'lichen.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => editor(page).textContent(), { timeout: 20_000 }).toMatch(/!\[lichen\.png\]\(#\/captures\/[^)]+\)/);
    // A file dropped onto the editor.
    await editor(page).evaluate((el) => {
      const dt = new DataTransfer();
      dt.items.add(new File(['# Trip notes\n\nWe saw lichen, moss and three kinds of fern near the stream.'], 'trip-notes.md', { type: 'text/markdown' }));
      const r = el.getBoundingClientRect();
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, clientX: r.left + 20, clientY: r.bottom - 10 }));
    });
    await expect.poll(() => editor(page).textContent(), { timeout: 20_000 }).toMatch(/\[trip-notes\.md\]\(#\/captures\/[^)]+\)/);
    await page.getByText('Uploaded as a capture; linked when you save.').first().waitFor();
    // A file type the server refuses shows its error and leaves no placeholder.
    await editor(page).evaluate((el) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array([0, 1, 2, 3, 4, 5])], 'blob.bin', { type: 'application/octet-stream' }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 10, clientY: 10 }));
    });
    await page.getByRole('alert').filter({ hasText: 'Upload failed' }).waitFor();
    expect(await editor(page).textContent()).not.toContain('uploading');

    const text = (await editor(page).textContent())!;
    const ids = [...text.matchAll(/#\/captures\/([^)]+)\)/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    for (const cid of ids) expect((await s.api('GET', `/captures/${cid}`)).status).toBe(200);
    await page.keyboard.press('Control+s');
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    // Each capture becomes its own node when processed; the edited node references it.
    const captureNodes = await Promise.all(
      ids.map(async (cid) => {
        let nodeId: string | null = null;
        await expect.poll(async () => (nodeId = (await s.api<{ node_id: string | null }>('GET', `/captures/${cid}`)).body.node_id), { timeout: 60_000 }).toBeTruthy();
        return nodeId!;
      }),
    );
    await expect
      .poll(async () => (await s.api<{ links: Link[] }>('GET', `/nodes/${n.body.id}/links`)).body.links.map((l) => `${l.target_id}:${l.type}`).sort(), { timeout: 30_000 })
      .toEqual(captureNodes.map((c) => `${c}:references`).sort());
    await page.context().close();
  }, 150_000);

  it('keeps what was typed before and while CodeMirror arrived, and the typing goes on in it', async () => {
    const page = await s.signedInPage();
    await page.goto('/');
    await page.getByRole('region', { name: 'Graph health' }).waitFor();
    // The editor's chunk is held while the stand-in is typed into.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/chunk-.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'New node' }).first().click();
    await page.getByLabel('Title').fill('Typed early');
    await page.locator('textarea.md-fallback').click();
    await page.keyboard.type('Written **before**');
    release();
    await page.keyboard.type(' the editor came.'); // as it arrives
    await editor(page).waitFor();
    await expect.poll(() => editor(page).textContent()).toBe('Written **before** the editor came.');
    // The caret moved into the editor with the text: typing goes on, no click needed.
    await page.keyboard.type(' And after.');
    await expect.poll(() => editor(page).textContent()).toBe('Written **before** the editor came. And after.');
    await page.getByRole('region', { name: 'Preview' }).locator('strong').waitFor();
    await page.getByLabel('Tags').fill('early');
    await page.getByRole('button', { name: 'Create node' }).click();
    const id = await nodeIdFromUrl(page);
    const kept = await s.api<{ body_markdown: string; tags: string[] }>('GET', `/nodes/${id}`);
    expect(kept.body).toMatchObject({ body_markdown: 'Written **before** the editor came. And after.', tags: ['early'] });
    await page.context().close();
  });

  it('keeps a draft through a reload and a navigation, restores it with a notice, and discards it on request', async () => {
    const n = await s.api<{ id: string }>('POST', '/nodes', { title: 'Compost heap', content: 'Turn it weekly.' });
    const page = await s.signedInPage();
    await page.goto(`/#/nodes/${n.body.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Keep it damp.');
    await page.reload();
    await page.getByText(/Draft restored/).waitFor();
    await expect.poll(() => editor(page).textContent()).toBe('Turn it weekly. Keep it damp.');
    // Away to the search page and back: still there.
    await page.goto('/#/');
    await page.goto(`/#/nodes/${n.body.id}`);
    await page.getByText(/Draft restored/).waitFor();
    await expect.poll(() => editor(page).textContent()).toBe('Turn it weekly. Keep it damp.');
    expect((await s.api<{ body_markdown: string }>('GET', `/nodes/${n.body.id}`)).body.body_markdown).toBe('Turn it weekly.');
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await expect.poll(() => editor(page).textContent()).toBe('Turn it weekly.');
    await page.reload();
    await page.getByRole('heading', { name: 'Compost heap', level: 1 }).waitFor();
    expect(await page.getByText(/Draft restored/).count()).toBe(0);

    // A new node's draft, saved and then gone.
    await page.goto('/#/nodes/new');
    await page.getByLabel('Title').fill('Half-written idea');
    await page.reload();
    await page.getByText(/Draft restored/).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Half-written idea');
    await page.keyboard.press('Control+s');
    await nodeIdFromUrl(page);
    expect(await page.evaluate(() => localStorage.getItem('rhizome.draft.new'))).toBeNull();
    await page.context().close();
  }, 90_000);

  it('passes axe on the new-node and edit pages, by keyboard, and takes the documentation screenshots', async () => {
    const a = await s.api<{ id: string }>('POST', '/nodes', { title: 'Wood wide web', content: 'Trees share sugar through fungal threads.' });
    const page = await s.signedInPage({ width: 1280, height: 800 });
    await page.goto('/#/nodes/new');
    await editor(page).waitFor();
    expect(await axeSerious(page)).toEqual([]);
    // Keyboard: Tab from the title reaches the summary, then the editor.
    await page.getByLabel('Title').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent)).toMatch(/Content \(Markdown\)|Write/);

    await page.goto(`/#/nodes/${a.body.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n## What moves\n\n- **carbon** from old trees to seedlings\n- water in dry spells\n\n> The forest is a network. See [[Wood wide web]].');
    expect(await axeSerious(page)).toEqual([]);
    const shots = await docShots(page, 'editor', async (p) => {
      await p.getByRole('region', { name: 'Preview' }).or(p.getByRole('button', { name: 'Preview' })).first().waitFor();
      await p.locator('.editor-split').scrollIntoViewIfNeeded();
    });
    expect(shots.violations).toEqual({});
    // The phone shows one pane at a time: Write, or Preview.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'What moves' }).waitFor();
    expect(await editor(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Write' }).click();
    expect(await editor(page).isVisible()).toBe(true);
    await page.context().close();
  }, 120_000);
});

describe('wikilinkTitles', () => {
  it('finds each [[Title]] and [[Title|alias]] once, trimmed, and nothing else', () => {
    expect(wikilinkTitles('See [[ Alpha ]], [[Beta|the beta]] and [[Alpha]] again; not [single] nor [[]] nor [[a\nb]].')).toEqual(['Alpha', 'Beta']);
    expect(wikilinkTitles('no links here')).toEqual([]);
  });
});
