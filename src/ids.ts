// Public ids are opaque, prefixed and sortable by creation time (ULID body).
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

export type IdPrefix = 'ten' | 'key' | 'opk' | 'usr' | 'rt' | 'nod' | 'par' | 'cap' | 'imp' | 'whk' | 'msg' | 'fed' | 'rul' | 'rla' | 'hl';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${next().toLowerCase()}`;
}
