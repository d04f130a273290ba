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

  async list(tenantId: string): Promise<{ data: TagDto[] }> {
    return { data: await this.repo.counts(tenantId) };
  }

  /** Renames `from` to `to` on every node; where a node has both, they merge into one. */
  async rename(tenantId: string, from: string, to: string): Promise<TagDto> {
    const target = parseOrThrow(tagName, to);
    return await this.tx.withTx(async () => {
      const rows = await this.repo.nodesWith(tenantId, from);
      if (rows.length === 0) throw new NotFoundError('Tag');
      if (target !== from) await this.rewrite(rows, (tags) => [...new Set(tags.map((t) => (t === from ? target : t)))]);
      return (await this.repo.counts(tenantId)).find((t) => t.name === target)!;
    });
  }

  /** Removes the tag from every node that carries it. */
  async remove(tenantId: string, name: string): Promise<void> {
    await this.tx.withTx(async () => {
      const rows = await this.repo.nodesWith(tenantId, name);
      if (rows.length === 0) throw new NotFoundError('Tag');
      await this.rewrite(rows, (tags) => tags.filter((t) => t !== name));
    });
  }

  private async rewrite(rows: NodeRow[], change: (tags: string[]) => string[]): Promise<void> {
    const now = iso(this.clock.now());
    for (const row of rows) {
      const tags = JSON.stringify(change(JSON.parse(row.tags) as string[]));
      await this.nodes.update({ ...row, tags, updated_at: now }, true);
    }
  }
}
