// A capture acknowledged with 201 is never lost: kill -9 the real server while captures
// are queued and being processed, restart it on the same data folder, and every
// acknowledged capture completes exactly once, with exactly one node.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Site } from './helpers.js';
import { killMidProcessingScenario, slowSite } from './durability-scenario.js';

let site: Site;
beforeAll(async () => {
  site = await slowSite();
});
afterAll(() => site.close());

describe('durability', () => {
  it('kill -9 mid-processing, restart: every acknowledged capture completes exactly once', () => killMidProcessingScenario(site), 360_000);
});
