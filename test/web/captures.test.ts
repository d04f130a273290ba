// The dashboard end to end (3/4): captures (form, upload checks, live status, lifecycle) and API keys.
// A real server process, real headless Chromium, real clicks; screenshots go to test/artifacts/.
import { describe, expect, it } from 'vitest';
import { e2eSuite, screenshot } from './harness.js';

const s = e2eSuite();

describe('captures', () => {
  it('checks file type and size before uploading, then uploads a dropped-in Markdown file', async () => {
    const page = await s.signedInPage();
    await page.goto('/#/captures');
    await page.getByRole('tab', { name: 'File' }).click();
    await page.getByText('up to 25 MB').waitFor();
    await page.setInputFiles('#cap-file', { name: 'movie.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.getByText('is not a supported type').waitFor();
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isDisabled()).toBe(true);
    // Dropped onto the drop zone, built inside the page (no 25 MB round trip through the driver).
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'huge.pdf', { type: 'application/pdf' }));
      document.querySelector('.dropzone')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByText('the limit is 25 MB').waitFor();
    expect(await page.getByRole('button', { name: 'Capture', exact: true }).isDisabled()).toBe(true);
    await page.setInputFiles('#cap-file', { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nfine') });
    await page.getByText('notes.md').waitFor();
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.locator('.cc-card', { hasText: 'notes' }).locator('.badge-status-completed').waitFor({ timeout: 45_000 });
    await page.context().close();
  }, 120_000);

  it('captures a note and watches it complete, then shows its timeline and provenance', async () => {
    const page = await s.signedInPage();
    await page.goto('/#/captures');
    await page.getByRole('tab', { name: 'Note' }).click();
    await page.getByRole('textbox', { name: 'Note' }).fill('Plant garlic in autumn, about five centimetres deep, pointy end up. Mulch well before frost.');
    await page.getByLabel('Title (optional)').fill('Garlic planting');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const row = page.locator('.cc-card', { hasText: 'Garlic planting' });
    await row.waitFor();
    await row.locator('.badge-status-completed').waitFor({ timeout: 45_000 });
    await screenshot(page, 'captures');
    await row.getByRole('link', { name: 'Garlic planting' }).click();
    await page.getByRole('heading', { name: 'Garlic planting', level: 1 }).waitFor();
    await page.locator('.timeline li', { hasText: /completed/i }).first().waitFor();
    await page.locator('.stages li').first().waitFor();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('.prose', { hasText: 'Plant garlic in autumn' }).waitFor();
    await screenshot(page, 'capture');
    await page.getByRole('link', { name: 'Open node' }).click();
    await page.getByRole('heading', { name: 'Garlic planting', level: 1 }).waitFor();
    await page.context().close();
  }, 120_000);
});

describe('capture lifecycle', () => {
  it('shows why a capture failed, retries it, archives and unarchives it', async () => {
    const page = await s.signedInPage();
    await page.goto('/#/captures');
    // Loopback addresses are refused by the fetcher (RHIZOME_ALLOW_PRIVATE_FETCH is off).
    await page.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:9/private-page');
    await page.getByLabel('Title (optional)').fill('Private page');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const row = page.locator('.cc-card', { hasText: 'Private page' });
    await row.locator('.badge-status-failed').waitFor({ timeout: 60_000 });
    await row.locator('.cc-error').waitFor();
    await row.getByRole('link', { name: 'Private page' }).click();
    await page.getByRole('heading', { name: 'Private page', level: 1 }).waitFor();
    await page.getByText('Processing failed').waitFor();
    await page.getByRole('button', { name: 'Retry: Private page' }).click();
    await page.locator('.timeline li', { hasText: /retried/i }).first().waitFor();
    await page.locator('.page-head .badge-status-failed').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Archive: Private page' }).click();
    await page.locator('.page-head .badge-status-archived').waitFor();
    await page.getByRole('button', { name: 'Unarchive: Private page' }).click();
    await page.locator('.page-head .badge-status-failed').waitFor();
    await page.context().close();
  }, 150_000);
});

describe('settings', () => {
  it('creates an API key shown once with a copy button, and revokes it', async () => {
    const page = await s.signedInPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.server.url });
    await page.goto('/#/settings');
    await page.getByLabel('Name').fill('laptop CLI');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^[^.]+\.[^.]+$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const works = await fetch(s.server.url + '/api/v1/auth/api-keys', { headers: { Authorization: `ApiKey ${key}` } });
    expect(works.status).toBe(200);
    await page.getByRole('row', { name: /laptop CLI/ }).waitFor();
    await screenshot(page, 'settings');

    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke laptop CLI' }).click();
    await expect.poll(() => page.getByRole('row', { name: /laptop CLI/ }).count()).toBe(0);
    const revoked = await fetch(s.server.url + '/api/v1/auth/api-keys', { headers: { Authorization: `ApiKey ${key}` } });
    expect(revoked.status).toBe(401);
    await page.reload();
    expect(await page.getByLabel('New API key').count()).toBe(0); // shown once, never again
    await page.context().close();
  });
});
