// What OCR may be asked to read. The dimensions come from the image header (image-size
// reads a few bytes), so an image whose raster would not fit in memory is refused before
// anything decodes it: a 20,000 × 20,000 PNG is 1.6 GB of RGBA however small its file.

export interface OcrLimits {
  /** Width × height above which OCR is refused (the header is trusted only to refuse). */
  maxPixels: number;
  /** Smaller than this on either side holds no legible text: OCR is not started. */
  minSide: number;
  /** Wall-clock budget for one image, including starting the model; the worker is killed after it. */
  timeoutMs: number;
  /** The model's worker thread is stopped after this long without work, to give its memory back. */
  idleMs: number;
}

export const DEFAULT_OCR_LIMITS: Readonly<OcrLimits> = Object.freeze({
  // 40 MP: a 12 MP phone photo or a 1280 × 30,000 full-page screenshot passes; the decoded
  // raster (4 bytes a pixel) stays under ~160 MB inside the worker.
  maxPixels: 40_000_000,
  minSide: 8,
  timeoutMs: 30_000,
  idleMs: 15_000,
});

export interface Dimensions {
  width?: number;
  height?: number;
}

export type Refusal = { status: 'too_large' | 'too_small' | 'unreadable'; detail: string };

/** Why OCR must not run on an image of these dimensions, or null when it may. */
export function refuseByHeader(d: Dimensions, limits: OcrLimits): Refusal | null {
  if (!d.width || !d.height) return { status: 'unreadable', detail: 'the image header gives no dimensions' };
  const pixels = d.width * d.height;
  if (pixels > limits.maxPixels) {
    return { status: 'too_large', detail: `${d.width}×${d.height} px is ${(pixels / 1e6).toFixed(1)} MP, above the ${(limits.maxPixels / 1e6).toFixed(0)} MP OCR limit` };
  }
  if (d.width < limits.minSide || d.height < limits.minSide) {
    return { status: 'too_small', detail: `${d.width}×${d.height} px is too small to hold legible text` };
  }
  return null;
}
