// The dashboard's Import page, end to end: a vault zip is uploaded and followed to its
// counts, a bookmark file of the wrong format is refused with the API's words, and the
// Markdown export downloads as a zip.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';
import { rawZip } from '../interop/zip-bytes.js';

const s = e2eSuite();

describe('import page', () => {
  it('imports a vault zip, refuses a wrong bookmark file, downloads the export', async () => {
    const page = await s.signedInPage();
    await page.goto('/#/import');
    await page.getByRole('heading', { name: 'Import and export' }).waitFor();
    const zip = rawZip([
      { name: 'Projects/Garden/Beds.md', data: '---\ntags: [garden]\n---\n# Raised beds\n\nSee [[Soil]] and [[Nowhere]].' },
      { name: 'Projects/Garden/Soil.md', data: '# Soil\n\n#compost keeps it alive.' },
    ]);
    await page.setInputFiles('#import-markdown', { name: 'garden.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.getByLabel(/folders become PARA items/).check();
    await page.getByRole('button', { name: 'Import vault' }).click();
    const report = page.locator('.import-run[data-status="completed"]');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.innerText()).toMatch(/2\s+created/);
    expect(await report.innerText()).toMatch(/1\s+unresolved links/);
    expect(await report.innerText()).toMatch(/\[\[Nowhere\]\] matches nothing/);
    await screenshot(page, 'import-page');

    await page.setInputFiles('#import-bookmarks', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some text') });
    await page.getByRole('button', { name: 'Import bookmarks' }).click();
    await page.getByText(/Bookmark files understood: Netscape bookmark HTML/).first().waitFor();

    const html = readFileSync('test/fixtures/interop/netscape-bookmarks.html');
    await page.setInputFiles('#import-bookmarks', { name: 'bookmarks.html', mimeType: 'text/html', buffer: html });
    await page.getByRole('button', { name: 'Import bookmarks' }).click();
    await page.locator('.import-run[data-status="completed"]', { hasText: '4 created' }).waitFor({ timeout: 30_000 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Markdown (.zip)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^rhizome-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const nodes = await s.api<{ total: number }>('GET', '/nodes');
    expect(nodes.body.total).toBeGreaterThanOrEqual(2);
    await page.context().close();
  }, 120_000);
});
