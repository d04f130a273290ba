// The Rhizome MCP server: the same tools over stdio (`rhizome mcp`) and HTTP (`/mcp`),
// each a thin face over the typed API client.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RhizomeClient } from '../client/client.js';
import { packageVersion } from '../paths.js';
import { registerNodeTools } from './tools-nodes.js';
import { registerWorkTools } from './tools-work.js';

export const MCP_INSTRUCTIONS =
  'Rhizome is a personal knowledge graph. Find knowledge with search_nodes or get_context, read it with get_node, ' +
  'add it with create_node or capture (URLs and notes are processed in the background), organise it with ' +
  'assign_para (see para_tree) and link_nodes.';

export function createMcpServer(client: RhizomeClient): McpServer {
  const server = new McpServer({ name: 'rhizome', version: packageVersion() }, { instructions: MCP_INSTRUCTIONS });
  registerNodeTools(server, client);
  registerWorkTools(server, client);
  return server;
}
