// What the memory budget counts of a tenant's index: every slot its arrays have written and
// what it keeps on V8's heap beside them (bench/lab/index-heap.ts measures
// those constants), not only the bytes of the vectors it holds.
import { expect, it } from 'vitest';
import { QuantizedIndex, SLOT_MAP_BYTES } from '../../src/vectors/quantized-index.js';
import { ID_ENTRY_BYTES, OWNER_ENTRY_BYTES, OWNER_LIST_BYTES, SemanticIndexes, type StoredVector } from '../../src/vectors/semantic-index.js';
import { SLOT_ID_BYTES, SlotIds } from '../../src/vectors/slot-ids.js';

const D = 64;
const v = (i: number) => Float32Array.from({ length: D }, (_, j) => Math.sin(i + j));

it('an index holds every slot it has written and its seq → slot map', () => {
  const ix = new QuantizedIndex(D);
  for (let i = 1; i <= 1025; i++) ix.upsert(i, v(i));
  for (let i = 1; i <= 25; i++) ix.remove(i);
  // 1,000 vectors left in 1,025 written slots (the free ones wait to be reused).
  expect(ix.heldBytes()).toBe(1025 * ix.bytesPerVector() + 1000 * SLOT_MAP_BYTES);
});

it("a tenant's held bytes count its node ids, and a passage index its owners and their lists", async () => {
  const page = (passages: boolean) => async (_t: string, after: number) => {
    const vectors: StoredVector[] = Array.from({ length: 30 }, (_, i) =>
      passages ? { seq: 1000 + i, id: `nod_${Math.floor(i / 3)}`, owner: Math.floor(i / 3) + 1, embedding: Buffer.from(v(i).buffer) } : { seq: i + 1, id: `nod_${i}`, embedding: Buffer.from(v(i).buffer) },
    );
    return { vectors: after ? [] : vectors, last: null };
  };
  const make = (passages: boolean) => new SemanticIndexes({ space: async () => ({ model_id: 'm', dimension: D }), page: page(passages), some: async () => [] });
  const nodes = make(false);
  await nodes.warm('t');
  const arrays = new QuantizedIndex(D);
  for (let i = 1; i <= 30; i++) arrays.upsert(i, v(i));
  // Node ids packed by slot: a row each.
  expect(nodes.held().get('t')).toBe(arrays.heldBytes() + 30 * SLOT_ID_BYTES);
  const passages = make(true);
  await passages.warm('t');
  // Thirty passages of ten nodes: an owner per passage, an id and a list of keys per node.
  expect(passages.held().get('t')).toBe(arrays.heldBytes() + 10 * ID_ENTRY_BYTES + 30 * OWNER_ENTRY_BYTES + 10 * OWNER_LIST_BYTES);
});

it('packs ids by slot; one too wide for a row is kept beside them; a reused slot takes its new id', () => {
  const ids = new SlotIds();
  ids.set(0, 'nod_01kzabcdefghjkmnpqrstvwxyz');
  const wide = `nod_${'x'.repeat(40)}`;
  ids.set(5000, wide);
  ids.set(7, 'nod_é');
  expect(ids.get(0)).toBe('nod_01kzabcdefghjkmnpqrstvwxyz');
  expect(ids.get(5000)).toBe(wide);
  expect(ids.get(7)).toBe('nod_é');
  expect(ids.get(6000)).toBeUndefined();
  ids.set(5000, 'nod_short');
  expect(ids.get(5000)).toBe('nod_short');
  expect(ids.heldBytes(ID_ENTRY_BYTES)).toBe(5001 * SLOT_ID_BYTES);
  ids.set(1, 'nod_\u{1F331}');
  expect(ids.get(1)).toBe('nod_\u{1F331}');
  expect(ids.heldBytes(ID_ENTRY_BYTES)).toBe(5001 * SLOT_ID_BYTES + ID_ENTRY_BYTES);
});
