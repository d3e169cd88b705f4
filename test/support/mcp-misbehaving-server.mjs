// An MCP server that misbehaves on request, for the MCP client's fault tests:
// `echo` answers, `hang` never does, `die` exits mid-call after a word on
// stderr, `garbage` writes a line that is not JSON-RPC and then answers.
// Plain JavaScript so a test can start it with node alone.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'misbehaving', version: '1' });
server.registerTool(
  'echo',
  { description: 'Says back what it is given.', inputSchema: { text: z.string().max(100) }, annotations: { readOnlyHint: true } },
  ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
);
server.registerTool('hang', { description: 'Never answers.', annotations: { readOnlyHint: true } }, () => new Promise(() => {}));
server.registerTool('die', { description: 'Exits in the middle of the call.', annotations: { readOnlyHint: false } }, () => {
  process.stderr.write('dying on purpose\n');
  setTimeout(() => process.exit(3), 20);
  return new Promise(() => {});
});
server.registerTool('garbage', { description: 'Writes a broken line, then answers.', annotations: { readOnlyHint: true } }, () => {
  process.stdout.write('this is not json-rpc\n');
  return { content: [{ type: 'text', text: 'still here' }] };
});
await server.connect(new StdioServerTransport());
