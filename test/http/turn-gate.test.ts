import { describe, expect, it } from 'vitest';
import { createTurnGate, waitsOnModel } from '../../src/http/turn-gate.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('turn gate', () => {
  it('starts at most perTurn requests a turn and the rest in arrival order on later turns', async () => {
    const gate = createTurnGate(2);
    const started: number[] = [];
    for (let i = 0; i < 5; i++) {
      const w = gate.enter();
      if (w !== undefined) void w.then(() => started.push(i));
      else started.push(i);
    }
    expect(started).toEqual([0, 1]);
    expect(gate.waiting).toBe(3);
    await nextTurn();
    expect(started).toEqual([0, 1, 2, 3]);
    await nextTurn();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(gate.waiting).toBe(0);
  });

  it('never lets a newcomer pass a request already waiting', async () => {
    const gate = createTurnGate(1);
    const order: string[] = [];
    void gate.enter();
    void gate.enter()!.then(() => order.push('waiting'));
    await nextTurn();
    // The one that waited goes before a request that arrives after it.
    const late = gate.enter();
    if (late !== undefined) void late.then(() => order.push('late'));
    else order.push('late');
    await nextTurn();
    await nextTurn();
    await nextTurn();
    expect(order).toEqual(['waiting', 'late']);
  });

  it('starts urgent requests at once, and everything when off', () => {
    const gate = createTurnGate(1);
    void gate.enter();
    expect(gate.enter()).toBeInstanceOf(Promise);
    expect(gate.enter(true)).toBeUndefined();
    const off = createTurnGate(0);
    for (let i = 0; i < 100; i++) expect(off.enter()).toBeUndefined();
  });
});

describe('waitsOnModel', () => {
  it.each([
    ['GET', '/api/v1/nodes?query=soil%20carbon', true],
    ['GET', '/api/v1/nodes?query=soil&mode=semantic', true],
    ['GET', '/api/v1/nodes?query=soil&mode=hybrid&limit=5', true],
    ['GET', '/api/v1/nodes?query=soil&mode=keyword', false],
    ['GET', '/api/v1/nodes?query=%20', false],
    ['GET', '/api/v1/nodes?status=active', false],
    ['GET', '/api/v1/nodes', false],
    ['GET', '/api/v1/nodes/abc', false],
    ['GET', '/api/v1/links/suggestions?text=x', true],
    ['POST', '/api/v1/context', true],
    ['POST', '/api/v1/nodes', false],
    ['DELETE', '/api/v1/nodes?query=x', false],
    [undefined, undefined, false],
  ])('%s %s → %s', (method, url, expected) => {
    expect(waitsOnModel(method, url)).toBe(expected);
  });
});
