// A fetched web page's Open Graph image and favicon, downloaded after extraction (which
// found the og:image) and committed with the capture's result. Never throws.
import type { Extracted, Source } from '../../ingest/extract/index.js';
import type { CaptureImageKind } from '../../repos/captures.repo.js';
import type { StageDeps } from './captures-stages.js';

export interface PageImagesFound {
  kept: Array<{ kind: CaptureImageKind; mime: string; bytes: Uint8Array }>;
  /** Metadata facts: what was kept (type, size, where from) and why a named picture was not. */
  facts: Record<string, unknown>;
}

export async function keepPageImages(d: Pick<StageDeps, 'config'>, src: Source, x: Extracted): Promise<PageImagesFound> {
  if (src.origin !== 'url' || src.kind !== 'html' || !src.finalUrl) return { kept: [], facts: {} };
  try {
    const html = new TextDecoder().decode(src.bytes);
    const og = typeof x.metadata.image === 'string' ? x.metadata.image : undefined;
    const { fetchPageImages } = await import('../../ingest/page-images.js'); // its HTML parser loads on first use
    const found = await fetchPageImages(html, src.finalUrl, og, d.config.allowPrivateFetch);
    const kept: PageImagesFound['kept'] = [];
    const facts: Record<string, unknown> = {};
    for (const kind of ['image', 'favicon'] as const) {
      const img = found[kind];
      if (!img) continue;
      kept.push({ kind, mime: img.mime, bytes: img.bytes });
      facts[kind === 'image' ? 'kept_image' : 'kept_favicon'] = { mime: img.mime, byte_size: img.bytes.length, url: img.url };
    }
    if (Object.keys(found.skipped).length) facts.images_skipped = found.skipped;
    return { kept, facts };
  } catch (e) {
    return { kept: [], facts: { images_skipped: { all: e instanceof Error ? e.message : String(e) } } };
  }
}
