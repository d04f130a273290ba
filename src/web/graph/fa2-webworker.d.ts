// The library ships the worker's body as a CommonJS function without types.
declare module 'graphology-layout-forceatlas2/webworker.js' {
  const runLayoutWorker: (this: unknown) => void;
  export default runLayoutWorker;
}
