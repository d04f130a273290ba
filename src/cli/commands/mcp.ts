// `rhizome mcp`: the MCP server on stdio for Claude Desktop, Cursor and other MCP clients.
// The SDK is imported when the command runs, not when any other command starts.
import type { Command } from 'commander';
import { client } from '../ui.js';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server on stdio (tools over the Rhizome API at RHIZOME_API_URL, with RHIZOME_TOKEN or your login)')
    .action(async () => {
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const { createMcpServer } = await import('../../mcp/server.js');
      const server = createMcpServer(client());
      const transport = new StdioServerTransport();
      // Runs until the MCP client closes the connection or stdin.
      const closed = new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
      });
      await server.connect(transport);
      await closed;
      await server.close();
    });
}
