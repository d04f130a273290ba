// Tags across nodes: counts, rename (merging into an existing tag) and delete. Each changed
// node is rewritten with its keyword index row (tags are part of its searchable text);
// its vector stays (the embedded text does not include tags).
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../errors.js';
import type { NodeRow, NodesRepo } from '../../repos/nodes.repo.js';
import type { TagsRepo } from '../../repos/tags.repo.js';
import { parseOrThrow } from '../../schemas/parse.js';
import { tagName, type TagDto } from '../../schemas/tags.js';

export class TagsService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: TagsRepo,
    private readonly nodes: NodesRepo,
    private readonly clock: Clock,
  ) {}

  list(tenantId: string): { data: TagDto[] } {
    return { data: this.repo.counts(tenantId) };
  }

  /** Renames `from` to `to` on every node; where a node has both, they merge into one. */
  rename(tenantId: string, from: string, to: string): TagDto {
    const target = parseOrThrow(tagName, to);
    return this.tx.withTx(() => {
      const rows = this.repo.nodesWith(tenantId, from);
      if (rows.length === 0) throw new NotFoundError('Tag');
      if (target !== from) this.rewrite(rows, (tags) => [...new Set(tags.map((t) => (t === from ? target : t)))]);
      return this.repo.counts(tenantId).find((t) => t.name === target)!;
    });
  }

  /** Removes the tag from every node that carries it. */
  remove(tenantId: string, name: string): void {
    this.tx.withTx(() => {
      const rows = this.repo.nodesWith(tenantId, name);
      if (rows.length === 0) throw new NotFoundError('Tag');
      this.rewrite(rows, (tags) => tags.filter((t) => t !== name));
    });
  }

  private rewrite(rows: NodeRow[], change: (tags: string[]) => string[]): void {
    const now = iso(this.clock.now());
    for (const row of rows) {
      const tags = JSON.stringify(change(JSON.parse(row.tags) as string[]));
      this.nodes.update({ ...row, tags, updated_at: now }, true);
    }
  }
}
