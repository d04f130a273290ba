// The OCR model: Tesseract 5 (LSTM, English "best_int" weights) compiled to WebAssembly by
// tesseract.js. The weights ship in the npm package @tesseract.js-data/eng and are read from
// node_modules, so nothing is downloaded. tesseract.js runs decoding (Leptonica: PNG, JPEG,
// WebP, GIF's first frame) and recognition in its own worker thread, off the event loop.
//
// One worker, started on first use, reads one image at a time. An image that overruns its
// budget gets the worker killed (worker_threads' terminate stops WebAssembly mid-loop) and
// the next image starts a fresh one. The worker stops after a quiet spell to return memory.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as Thread } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import type { Block, Worker as TesseractWorker } from 'tesseract.js';
import { lib } from '../versions.js';

const req = createRequire(import.meta.url);
const DATA_PACKAGE = '@tesseract.js-data/eng';
const DATA_VARIANT = '4.0.0_best_int';

/** The model as provenance names it: engine build and weights. */
export function ocrModelId(): string {
  return `${lib('tesseract.js')}+eng:${DATA_VARIANT}`;
}

function langPath(): string {
  return join(dirname(req.resolve(`${DATA_PACKAGE}/package.json`)), DATA_VARIANT);
}

export class OcrTimedOut extends Error {}

interface Live {
  tw: TesseractWorker;
  thread: Thread;
  /** Rejects when the thread dies (a WebAssembly abort, an uncaught error, terminate). */
  dead: Promise<never>;
}

// tesseract.js exposes its node Worker on the object it returns, though its types omit it.
const threadOf = (tw: TesseractWorker) => (tw as unknown as { worker: Thread }).worker;

export class TesseractEngine {
  private live: Promise<Live> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: () => number) {}

  /** Recognises one image within timeoutMs (counted from when its turn comes). */
  recognize(bytes: Uint8Array, timeoutMs: number): Promise<Block[]> {
    const job = this.tail.then(() => this.runOne(bytes, timeoutMs));
    this.tail = job.catch(() => {});
    return job;
  }

  /** Stops the worker thread (it starts again on the next image). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const l = this.live;
    this.live = null;
    if (l !== null) await l.then((x) => x.tw.terminate(), () => {});
  }

  private async runOne(bytes: Uint8Array, timeoutMs: number): Promise<Block[]> {
    clearTimeout(this.idleTimer);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrTimedOut(`OCR took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    let thread: Thread | undefined;
    try {
      const live = await Promise.race([this.start(), timeout]);
      thread = live.thread;
      thread.ref(); // keep the process alive while an image is being read
      const job = live.tw.recognize(Buffer.from(bytes), {}, { text: false, blocks: true });
      const res = await Promise.race([job, live.dead, timeout]);
      return res.data.blocks ?? [];
    } catch (e) {
      // A worker that timed out or failed is not trusted with the next image. Not awaited:
      // a worker still loading must not hold the pipeline.
      void this.close();
      throw e instanceof Error ? e : new Error(String(e));
    } finally {
      clearTimeout(timer);
      thread?.unref();
      this.idleTimer = setTimeout(() => void this.close(), this.idleMs());
      this.idleTimer.unref();
    }
  }

  private start(): Promise<Live> {
    if (this.live !== null) return this.live;
    const p: Promise<Live> = (async () => {
      const tw = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
        langPath: langPath(),
        gzip: true,
        cacheMethod: 'none', // read the weights from the package; never write a cache file
        // Without a handler tesseract.js rethrows a failed job inside its message listener,
        // which would be an uncaught exception in this process. The job's promise rejects anyway.
        errorHandler: () => {},
      });
      // Sauvola's adaptive threshold instead of global Otsu: a photo's uneven light and grain
      // otherwise turn whole lines into noise; clean and dark-mode screenshots read the same.
      await tw.setParameters({ thresholding_method: '2' } as Partial<Tesseract.WorkerParams>);
      const thread = threadOf(tw);
      thread.unref();
      // Leptonica and Tesseract print to the thread's stdio ("libpng error: Read Error",
      // "Invalid resolution 25 dpi"); a failed image is reported through its outcome instead.
      for (const [from, to] of [[thread.stdout, process.stdout], [thread.stderr, process.stderr]] as const) {
        from.unpipe(to);
        from.resume();
      }
      const dead = new Promise<never>((_, reject) => {
        thread.once('error', (e) => reject(new Error(`the OCR worker failed: ${e.message}`)));
        thread.once('exit', (code) => reject(new Error(`the OCR worker stopped (exit code ${code})`)));
      });
      dead.catch(() => {
        if (this.live === p) this.live = null;
      });
      return { tw, thread, dead };
    })();
    p.catch(() => {
      if (this.live === p) this.live = null;
    });
    this.live = p;
    return p;
  }
}
