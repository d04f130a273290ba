// Who may load onnxruntime's native binding. It registers once per process: a second thread
// that loads it gets "Module did not self-register", and two threads loading it at once can
// abort the whole process (measured with onnxruntime-node 1.21). So the first model worker
// that asks gets it, for the life of the process; every later one (a restart after a crash,
// a second lane, another embedder in the same process) runs USE-lite on TF.js instead, which
// gives the same vectors, and a transformers.js model reports the error.
import { readFileSync } from 'node:fs';

let claimed = false;

export function claimNativeRuntime(): boolean {
  if (claimed) return false;
  claimed = true;
  return !loadedAlready();
}

/** The binding mapped into this process by code that did not claim it (Linux; elsewhere: no). */
function loadedAlready(): boolean {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('onnxruntime_binding');
  } catch {
    return false;
  }
}
