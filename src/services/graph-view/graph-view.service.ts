// GET /graph: the whole tenant's graph for the explorer, capped. The most recently updated
// nodes are kept when the cap bites; links only join nodes that are returned.
import type { GraphViewRepo } from '../../repos/graph-view.repo.js';
import { GRAPH_MAX_LINKS } from '../../schemas/graph-view.js';
import type { LinkType } from '../../schemas/graph.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';

export interface GraphViewRecord {
  nodes: Array<{ id: string; title: string; status: 'raw' | 'validated' | 'dismissed'; para_item_ids: string[]; tags: string[]; degree: number }>;
  links: Array<{ source: string; target: string; type: LinkType }>;
  total_nodes: number;
  total_links: number;
  truncated: boolean;
}

export class GraphViewService {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: GraphViewRepo,
  ) {}

  async graph(tenantId: string, limit: number, maxLinks = GRAPH_MAX_LINKS): Promise<GraphViewRecord> {
    return await this.tx.withTx(async () => {
      const rows = await this.repo.nodes(tenantId, limit);
      const totalNodes = await this.repo.nodeCount(tenantId);
      const totalLinks = await this.repo.linkCount(tenantId);
      const degrees = await this.repo.degrees(tenantId);
      const para = await this.repo.paraItems(tenantId);
      const kept = new Set(rows.map((r) => r.id));
      const nodes = rows.map((r) => ({
        id: r.id,
        title: r.title,
        status: r.status,
        para_item_ids: para.get(r.id) ?? [],
        tags: JSON.parse(r.tags) as string[],
        degree: degrees.get(r.id) ?? 0,
      }));
      const links: GraphViewRecord['links'] = [];
      let linksCut = false;
      for (const l of await this.repo.links(tenantId, [...kept], maxLinks + 1)) {
        if (links.length >= maxLinks) {
          linksCut = true;
          break;
        }
        links.push({ source: l.source_id, target: l.target_id, type: l.type });
      }
      return { nodes, links, total_nodes: totalNodes, total_links: totalLinks, truncated: linksCut || rows.length < totalNodes };
    });
  }
}
