import { describe, expect, it } from 'vitest';
import { HostSpacing } from '../../src/ingest/host-spacing.js';

function fakeTime() {
  const t = 0;
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => { sleeps.push(ms); }, sleeps };
}

describe('per-host spacing of fetches', () => {
  it('spaces requests to one host by the gap, lets other hosts through at once', async () => {
    const clock = fakeTime();
    const s = new HostSpacing(1000, clock.now, clock.sleep);
    await Promise.all([s.wait('https://a.example/1'), s.wait('https://a.example/2'), s.wait('https://A.example/3'), s.wait('https://b.example/1')]);
    expect(clock.sleeps.sort((x, y) => x - y)).toEqual([1000, 2000]);
  });

  it('does not space loopback hosts or unparsable URLs', async () => {
    const clock = fakeTime();
    const s = new HostSpacing(1000, clock.now, clock.sleep);
    for (let i = 0; i < 3; i++) await s.wait('http://127.0.0.1:8080/x');
    await s.wait('not a url');
    expect(clock.sleeps).toEqual([]);
  });
});
