// Each slot's node id, packed: the id's characters in a fixed-width row of one byte array
// instead of a JS string and a map entry per vector (~80 B of V8's heap each, measured by
// bench/lab/index-heap.ts; a million-vector process held ~80 MB of them, and V8 sizes its heap
// at a multiple of what lives in it). An id that does not fit a row (longer than ROW - 1
// characters, or a character past one byte) is kept in a map beside it.
export const SLOT_ID_BYTES = 32;
const ROW = SLOT_ID_BYTES;
/** A row's first byte: the id's length, or this when the id is in the map. */
const IN_MAP = 255;

export class SlotIds {
  private bytes = Buffer.alloc(0);
  /** Rows written: one past the highest slot set. */
  private rows = 0;
  private readonly wide = new Map<number, string>();

  set(slot: number, id: string): void {
    if ((slot + 1) * ROW > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(1024 * ROW, 2 * this.bytes.length, (slot + 1) * ROW));
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    this.rows = Math.max(this.rows, slot + 1);
    const o = slot * ROW;
    let fits = id.length < ROW;
    for (let i = 0; fits && i < id.length; i++) fits = id.charCodeAt(i) < 256;
    if (!fits) {
      this.bytes[o] = IN_MAP;
      this.wide.set(slot, id);
      return;
    }
    this.wide.delete(slot);
    this.bytes[o] = id.length;
    for (let i = 0; i < id.length; i++) this.bytes[o + 1 + i] = id.charCodeAt(i);
  }

  get(slot: number): string | undefined {
    if (slot >= this.rows) return undefined;
    const o = slot * ROW;
    const n = this.bytes[o];
    if (n === IN_MAP) return this.wide.get(slot);
    // Decoded natively (one byte a character): spreading the bytes into String.fromCharCode
    // was 3 % of the main thread under bench:load (a k-NN names every candidate).
    return this.bytes.toString('latin1', o + 1, o + 1 + n);
  }

  /** The rows written, and the ids kept in the map (at ID_ENTRY_BYTES-like cost each). */
  heldBytes(entryBytes: number): number {
    return this.rows * ROW + this.wide.size * entryBytes;
  }
}
