// A Markdown file captured twice, or captured after a vault import brought it in, is
// recognised by its content: the capture updates the same node instead of adding another.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturesApp, settled, upload } from '../captures/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { rawZip } from './zip-bytes.js';

let t: TestApp;
beforeEach(async () => { t = await capturesApp(); });
afterEach(async () => { await t.close(); });

const note = new TextEncoder().encode('# Garden plan\n\n- [ ] order seeds\n- [ ] build the raised bed\n\nTomatoes go by the south wall.\n');
const nodeCount = async () => (await (await t.req('GET', '/api/v1/nodes?per_page=100')).json()).total;

describe('recognising a Markdown file by its content', () => {
  it('the same file captured twice updates one node', async () => {
    const first = await settled(t, (await (await upload(t, note, 'garden.md')).json()).id);
    const second = await settled(t, (await (await upload(t, note, 'garden-copy.md')).json()).id);
    expect(first.status).toBe('completed');
    expect(second).toMatchObject({ status: 'completed', node_id: first.node_id });
    expect(await nodeCount()).toBe(1);
    const other = await settled(t, (await (await upload(t, new TextEncoder().encode('# Other\n\nsomething else entirely\n'), 'other.md')).json()).id);
    expect(other.node_id).not.toBe(first.node_id);
    expect(await nodeCount()).toBe(2);
  });

  it('a file imported from a vault and then captured updates the imported node', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(rawZip([{ name: 'Garden.md', data: note }]))]), 'vault.zip');
    const started = await (await t.req('POST', '/api/v1/imports/markdown', form)).json();
    await t.s.imports.idle();
    await t.s.queue.idle();
    const run = await (await t.req('GET', `/api/v1/imports/${started.id}`)).json();
    expect(run.counts.created).toBe(1);
    const imported = (await (await t.req('GET', '/api/v1/nodes')).json()).data[0];
    const cap = await settled(t, (await (await upload(t, note, 'Garden.md')).json()).id);
    expect(cap).toMatchObject({ status: 'completed', node_id: imported.id });
    expect(await nodeCount()).toBe(1);
  });
});
