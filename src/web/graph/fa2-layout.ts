// ForceAtlas2's supervisor with its worker loaded from a file on the page's own origin
// (fa2-worker.ts, named by build.mjs) instead of a blob: URL the CSP refuses.
import FA2Layout from 'graphology-layout-forceatlas2/worker';

/** Set by build.mjs to /assets/fa2-worker-<hash>.js. */
declare const __FA2_WORKER_URL__: string;

interface SupervisorInternals {
  worker: Worker | null;
  running: boolean;
  handleMessage(e: MessageEvent): void;
  start(): void;
}

export class FileWorkerFA2Layout extends FA2Layout {
  /** Called by the supervisor's constructor and whenever the graph changes (its own respawn). */
  spawnWorker(this: FileWorkerFA2Layout & SupervisorInternals): void {
    this.worker?.terminate();
    this.worker = new Worker(__FA2_WORKER_URL__);
    this.worker.addEventListener('message', this.handleMessage);
    if (this.running) {
      this.running = false;
      this.start();
    }
  }
}
