// Each indexed node's length in tokens (BM25's |D|), dense by seq from the tenant's smallest
// seq, kept current as nodes change (0: not indexed). Pure.

export class DocLengths {
  base = 0;
  lens = new Uint32Array(0);

  constructor(seqs: ArrayLike<number> = [], lens: ArrayLike<number> = []) {
    if (seqs.length === 0) return;
    this.base = seqs[0];
    this.lens = new Uint32Array(seqs[seqs.length - 1] - this.base + 1);
    for (let i = 0; i < seqs.length; i++) this.lens[seqs[i] - this.base] = lens[i];
  }

  get(seq: number): number {
    const i = seq - this.base;
    return i >= 0 && i < this.lens.length ? this.lens[i] : 0;
  }

  set(seq: number, len: number): void {
    if (this.lens.length === 0) this.base = seq;
    if (seq < this.base) {
      const grown = new Uint32Array(this.lens.length + (this.base - seq));
      grown.set(this.lens, this.base - seq);
      this.lens = grown;
      this.base = seq;
    } else if (seq - this.base >= this.lens.length) {
      const grown = new Uint32Array(Math.max(seq - this.base + 1, Math.ceil(this.lens.length * 1.25)));
      grown.set(this.lens);
      this.lens = grown;
    }
    this.lens[seq - this.base] = len;
  }

  get bytes(): number {
    return this.lens.byteLength;
  }
}
