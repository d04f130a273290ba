// Module hooks (node:module register): one stderr line for every module Node loads from a
// package in node_modules, read by test/foundation/startup-modules.e2e.test.ts.
export async function load(url, context, next) {
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (m) process.stderr.write(`module-load ${m[1]} ${url}\n`);
  return next(url, context);
}
