// Nodes and PARA items as MCP resources: rhizome://nodes/{id} and rhizome://para/{id},
// served as Markdown with YAML front matter. resources/list is paginated with an opaque
// cursor (PARA items on the first page, then nodes newest first, PAGE_SIZE a page).
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { RhizomeClient } from '../client/client.js';
import type { ParaItem } from '../client/types.js';
import { RhizomeApiError } from '../client/errors.js';
import { nodeMarkdown, oneLine, paraMarkdown } from './markdown.js';

export const PAGE_SIZE = 50;
const MD = 'text/markdown';

const nodeResource = (n: { id: string; title: string; summary?: string }): Resource => ({
  uri: `rhizome://nodes/${n.id}`, name: n.title, title: n.title, mimeType: MD, ...(n.summary ? { description: oneLine(n.summary, 200) } : {}),
});
const paraResource = (p: ParaItem): Resource => ({
  uri: `rhizome://para/${p.id}`, name: `${p.category}/${p.slug}`, title: `${p.label} (${p.category})`, mimeType: MD, ...(p.description ? { description: oneLine(p.description, 200) } : {}),
});

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  const page = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^page:/, ''));
  if (!Number.isInteger(page) || page < 2) throw new McpError(ErrorCode.InvalidParams, 'invalid cursor');
  return page;
}
const encodeCursor = (page: number) => Buffer.from(`page:${page}`).toString('base64url');

/** A missing node or item is a resource-not-found error, not a crash. */
async function orNotFound<T>(uri: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RhizomeApiError && (e.status === 404 || e.status === 400)) throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
    throw e;
  }
}

export function registerResources(server: McpServer, client: RhizomeClient): void {
  server.registerResource(
    'node',
    new ResourceTemplate('rhizome://nodes/{id}', { list: undefined }),
    { title: 'Knowledge node', description: 'A node as Markdown with YAML front matter (id, title, tags, status, PARA items, dates)', mimeType: MD },
    async (uri, { id }) => {
      const node = await orNotFound(uri.href, () => client.getNode(String(id)));
      return { contents: [{ uri: uri.href, mimeType: MD, text: nodeMarkdown(node) }] };
    },
  );

  server.registerResource(
    'para-item',
    new ResourceTemplate('rhizome://para/{id}', { list: undefined }),
    { title: 'PARA item', description: 'A project, area or resource with the nodes filed under it', mimeType: MD },
    async (uri, { id }) => {
      const item = await orNotFound(uri.href, () => client.paraGet(String(id)));
      const nodes = await client.search({ para_item_id: item.id, per_page: 100 });
      return { contents: [{ uri: uri.href, mimeType: MD, text: paraMarkdown(item, nodes.data, nodes.total) }] };
    },
  );

  // The SDK's own resources/list has no pagination: this one pages through the API.
  server.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const page = decodeCursor(request.params?.cursor);
    const nodes = await client.search({ page, per_page: PAGE_SIZE });
    const para = page === 1 ? (await client.paraList()).map(paraResource) : [];
    const more = page * PAGE_SIZE < nodes.total;
    return { resources: [...para, ...nodes.data.map(nodeResource)], ...(more ? { nextCursor: encodeCursor(page + 1) } : {}) };
  });
}
