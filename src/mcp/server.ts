// The Rhizome MCP server: the same tools, resources and prompts over stdio (`rhizome mcp`)
// and HTTP (`/mcp`), each a thin face over the typed API client.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RhizomeClient } from '../client/client.js';
import { packageVersion } from '../paths.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerActivityTools } from './tools/activity.js';
import { registerCaptureTools } from './tools/captures.js';
import { registerContextTools } from './tools/context.js';
import { registerGraphTools } from './tools/graph.js';
import { registerLinkTools } from './tools/links.js';
import { registerNodeTools } from './tools/nodes.js';
import { registerParaTools } from './tools/para.js';
import { registerSearchTools } from './tools/search.js';
import { registerTagTools } from './tools/tags.js';
import { registerMemoryTools } from './tools/memory.js';
import { registerFeedsTools } from './tools/feeds.js';
import { registerHighlightTools } from './tools/highlights.js';
import { registerAskTools } from './tools/ask.js';

export const MCP_INSTRUCTIONS =
  'Rhizome is a personal knowledge graph. Find knowledge with search_nodes or get_context, read it with read_node ' +
  '(by id or title), add it with create_node or capture (URLs and notes are processed in the background), change it ' +
  'with edit_node (append, find_replace, replace_section) or update_node, organise it with assign_para (see list_para), ' +
  'link_nodes and list_tags, and see what changed with recent_activity. As memory for an agent: remember (dated, by session) and recall (passages with citations). Nodes are also resources (rhizome://nodes/{id}).';

export function createMcpServer(client: RhizomeClient): McpServer {
  const server = new McpServer({ name: 'rhizome', version: packageVersion() }, { instructions: MCP_INSTRUCTIONS });
  // One file per resource under ./tools/, each exporting register<Resource>Tools.
  registerNodeTools(server, client);
  registerSearchTools(server, client);
  registerContextTools(server, client);
  registerLinkTools(server, client);
  registerCaptureTools(server, client);
  registerParaTools(server, client);
  registerTagTools(server, client);
  registerGraphTools(server, client);
  registerActivityTools(server, client);
  registerMemoryTools(server, client);
  registerFeedsTools(server, client);
  registerHighlightTools(server, client);
  registerAskTools(server, client);
  registerResources(server, client);
  registerPrompts(server, client);
  // The set of tools, resources and prompts never changes while connected: claim no
  // list-change notifications (the SDK claims them by default) and no subscriptions.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  return server;
}
