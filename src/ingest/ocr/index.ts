// OCR of an image's bytes into text, with the guards that keep the capture pipeline alive:
// a pixel cap checked on the header before anything decodes, and a timeout that kills the
// model's worker. Every outcome is reported, never thrown: the caller keeps a placeholder.
import { assembleText, type AssembledText } from './assemble.js';
import { OcrTimedOut, TesseractEngine, ocrModelId } from './engine.js';
import { DEFAULT_OCR_LIMITS, refuseByHeader, type Dimensions, type OcrLimits, type Refusal } from './limits.js';

export { ocrModelId } from './engine.js';
export type { OcrLimits } from './limits.js';

export type OcrOutcome = { model: string; ms: number } & (
  | ({ status: 'ok' } & AssembledText)
  | { status: 'timed_out' | 'failed' | Refusal['status']; detail: string }
);

let limits: OcrLimits = { ...DEFAULT_OCR_LIMITS };
const engine = new TesseractEngine(() => limits.idleMs);

/** Changes the limits for every later image (the composition root or a test sets them). */
export function configureOcr(change: Partial<OcrLimits>): OcrLimits {
  limits = { ...limits, ...change };
  return { ...limits };
}

/** Stops the OCR worker thread, e.g. at shutdown; the next image starts it again. */
export function closeOcr(): Promise<void> {
  return engine.close();
}

/** Reads the text in an image whose header gave these dimensions. */
export async function recognizeImage(bytes: Uint8Array, dims: Dimensions): Promise<OcrOutcome> {
  const model = ocrModelId();
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const refusal = refuseByHeader(dims, limits);
  if (refusal) return { model, ms: 0, ...refusal };
  try {
    const blocks = await engine.recognize(bytes, limits.timeoutMs);
    return { model, ms: ms(), status: 'ok', ...assembleText(blocks) };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { model, ms: ms(), status: e instanceof OcrTimedOut ? 'timed_out' : 'failed', detail };
  }
}
