// An uploaded file's original lies beside its note in the Markdown export, embedded from
// the generated Links section. Importing the export does not capture it again: the note
// already is what that file became, and a second capture would make a second node.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturesApp, settled, upload } from '../captures/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { makePdf } from '../fixtures/generate.js';
import { readZip } from '../../src/interop/sources/zip.js';

let t: TestApp;
beforeEach(async () => { t = await capturesApp(); });
afterEach(async () => { await t.close(); });

describe('attachments in the export', () => {
  it('writes the uploaded PDF beside its note; importing the export keeps one node', async () => {
    const pdf = await makePdf();
    const cap = await settled(t, (await (await upload(t, pdf, 'forest report.pdf')).json()).id);
    expect(cap.status).toBe('completed');
    const zip = new Uint8Array(await (await t.req('GET', '/api/v1/exports/markdown')).arrayBuffer());
    const files = (await readZip(zip)).files;
    const beside = files.find((f) => f.path.endsWith('.pdf'))!;
    expect(beside.path).toBe('Inbox/forest report.pdf');
    expect(Buffer.from(beside.bytes).equals(Buffer.from(pdf))).toBe(true);
    const note = files.find((f) => f.path.startsWith('Inbox/') && f.path.endsWith('.md'))!;
    expect(new TextDecoder().decode(note.bytes)).toContain('- ![[forest report.pdf]]');

    const json = await (await t.req('GET', '/api/v1/exports/json')).json();
    expect(json.counts.captures).toBe(1);
    expect(json.captures[0]).toMatchObject({ id: cap.id, node_id: cap.node_id });

    const beta = await t.tenant('beta');
    const form = new FormData();
    form.append('file', new Blob([zip]), 'export.zip');
    const started = await (await t.req('POST', '/api/v1/imports/markdown', form, beta.auth)).json();
    await t.s.imports.idle();
    const run = await (await t.req('GET', `/api/v1/imports/${started.id}`, undefined, beta.auth)).json();
    expect(run.counts).toMatchObject({ created: 1, attachments_captured: 0 });
    await t.s.queue.idle();
    expect((await (await t.req('GET', '/api/v1/nodes', undefined, beta.auth)).json()).total).toBe(1);
  });
});
