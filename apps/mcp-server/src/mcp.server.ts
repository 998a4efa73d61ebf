import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from './tools/tool.js';
import type { CallOutcome, ToolCatalog } from './tools/tool-catalog.js';

const INSTRUCTIONS =
  'Signup sheets for potlucks, volunteer shifts and fundraisers. A signup has time slots (places) and items (things to bring). ' +
  'To set one up: create_signup (a draft), add_slots and add_items, then publish_signup and share its publicUrl; draft_signup_ai can ' +
  'propose all of it from a description. To see who is coming: get_signup (what remains), list_participants, get_signup_analytics. ' +
  'A failed call answers a problem object: switch on its code (scope_required names the scope to re-authorize with; validation_failed ' +
  'lists each bad argument in errors[]). Register tools answer a confirmation token first: keep it for the participant.';

/**
 * tools/call registered under a schema that checks the method only: the SDK's Server checks the
 * request against CallToolRequestSchema itself and answers a malformed one (arguments that are not
 * an object) with InvalidParams. Registered under that schema, the request would first fail the
 * protocol layer's own parse, which answers InternalError with the parser's issue dump.
 */
const TOOLS_CALL = CallToolRequestSchema.pick({ method: true }).loose();

/**
 * One MCP server for one HTTP request (the surface is stateless): tools/list from the catalog,
 * tools/call for the caller the request authenticated.
 */
export function mcpServer(
  catalog: ToolCatalog,
  context: ToolContext,
  requestId: string,
  settled: (tool: string, outcome: CallOutcome) => void,
): Server {
  const server = new Server(
    { name: 'signup-platform', title: 'Signup sheets', version: '1.0.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.listing }));
  server.setRequestHandler(TOOLS_CALL, (request) => {
    const { params } = CallToolRequestSchema.parse(request);
    return catalog.call(params.name, params.arguments, context, requestId, (outcome) => settled(params.name, outcome));
  });
  return server;
}
