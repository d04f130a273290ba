// The ForceAtlas2 layout's web worker as a file of its own, served from the dashboard's
// origin: the library would build it from a blob: URL, which the page's Content Security
// Policy (worker-src 'self') refuses. build.mjs bundles it and tells the app its name.
import runLayoutWorker from 'graphology-layout-forceatlas2/webworker.js';

runLayoutWorker.call(self);
