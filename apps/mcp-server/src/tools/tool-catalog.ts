import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  authorize,
  type EdgeSubject,
  type JsonSchema,
  jsonSchemaOf,
  type Principal,
  type RequestOf,
  requirementOf,
  validateInput,
} from '#libs/contracts';
import { ProblemError, ProblemSchema, toProblem, toProblemBody } from '#libs/problem';
import type { Scope } from '#libs/scopes';
import { ATTENDANCE_TOOLS } from './attendance.tools.js';
import { PARTICIPANT_TOOLS } from './participants.tools.js';
import { SIGNUP_TOOLS } from './signups.tools.js';
import { SLOT_ITEM_TOOLS } from './slots-items.tools.js';
import type { ToolContext, ToolDefinition } from './tool.js';
import { WAITLIST_TOOLS } from './waitlist.tools.js';

/** Every tool the MCP surface offers (API-DECISIONS.md "MCP"). */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  ...SIGNUP_TOOLS,
  ...SLOT_ITEM_TOOLS,
  ...PARTICIPANT_TOOLS,
  ...WAITLIST_TOOLS,
  ...ATTENDANCE_TOOLS,
];

/**
 * A tool's output: its success shape or the problem shape (a failed call's structuredContent), so
 * clients that validate structured output accept both.
 */
function successOrProblem(output: new () => object): JsonSchema {
  const { $defs: successDefs = {}, ...success } = jsonSchemaOf(output);
  const { $defs: problemDefs = {}, ...problem } = jsonSchemaOf(ProblemSchema);
  return { type: 'object', anyOf: [success, problem], $defs: { ...(successDefs as object), ...(problemDefs as object) } };
}

/** The scope of a tool's subject, from the subject catalog. */
function scopeOf({ subject }: ToolDefinition): Scope | undefined {
  const requirement = requirementOf(subject);
  return requirement.access === 'scope' ? requirement.scope : undefined;
}

/** What its subject requires of the caller (as its REST twin), then one of the tool's own scopes if it names some. */
function requireAccess(definition: ToolDefinition, principal: Principal): void {
  authorize(definition.subject, principal);
  const { oneOfScopes } = definition;
  if (oneOfScopes && !oneOfScopes.some((scope) => principal.scopes.includes(scope))) {
    throw new ProblemError(
      'scope_required',
      `This operation requires one of the scopes ${oneOfScopes.map((scope) => `"${scope}"`).join(', ')}.`,
    );
  }
}

function scopeNote(definition: ToolDefinition): string {
  const scope = scopeOf(definition);
  const notes = [
    ...(scope ? [`Needs the scope ${scope}.`] : []),
    ...(definition.oneOfScopes ? [`Needs one of the scopes ${definition.oneOfScopes.join(', ')}.`] : []),
  ];
  return notes.length > 0 ? notes.join(' ') : 'Needs no particular scope.';
}

/** The arguments of a tool that takes none (validateInput cannot check a class without fields): any is unknown. */
function noArguments<A extends object>(input: new () => A, args: object): A {
  const given = Object.keys(args);
  if (given.length > 0) throw ProblemError.validation(given.map((path) => ({ path, message: 'Unknown field' })));
  return new input();
}

/** How a call ended: its problem when it failed. */
export type CallOutcome = { ok: true } | { ok: false; error: unknown; problem: ProblemError };

/** The tools as tools/list shows them, and tools/call runs them: access, then arguments, then the bus. */
export class ToolCatalog {
  readonly listing: Tool[];
  private readonly byName: Map<string, ToolDefinition>;
  private readonly argumentless = new Set<string>();

  constructor(
    private readonly problemBase: string,
    definitions: readonly ToolDefinition[] = TOOL_DEFINITIONS,
  ) {
    this.byName = new Map(definitions.map((definition) => [definition.name, definition]));
    this.listing = definitions.map((definition) => {
      const inputSchema = jsonSchemaOf(definition.input, { closed: true });
      if (Object.keys(inputSchema.properties ?? {}).length === 0) this.argumentless.add(definition.name);
      return this.toolOf(definition, inputSchema);
    });
  }

  private toolOf(definition: ToolDefinition, inputSchema: JsonSchema): Tool {
    return {
      name: definition.name,
      title: definition.title,
      description: `${definition.description} ${scopeNote(definition)}`,
      inputSchema: { ...inputSchema, type: 'object' },
      outputSchema: { ...successOrProblem(definition.output), type: 'object' },
      annotations: { title: definition.title, ...definition.hints },
    };
  }

  /**
   * Runs a tool, and tells `settled` how it ended; a failure is a result with isError and the
   * problem as structuredContent. An unknown name is a protocol error (JSON-RPC InvalidParams).
   */
  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    context: ToolContext,
    requestId: string,
    settled?: (outcome: CallOutcome) => void,
  ): Promise<CallToolResult> {
    const definition = this.byName.get(name);
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Call tools/list for the tools offered.`);
    try {
      requireAccess(definition, context.principal);
      const input = this.argumentless.has(name)
        ? noArguments(definition.input, args ?? {})
        : await validateInput(definition.input, args ?? {}, 'arguments');
      const { bus, ...caller } = context;
      const request = (payload: RequestOf<EdgeSubject>) => bus.request(definition.subject, payload);
      const me = () => bus.request('auth.me', { principal: caller.principal });
      const result = await definition.run(input, { ...caller, request, me });
      const json = JSON.stringify(result);
      const text = definition.lead ? `${definition.lead(result, context)}\n\n${json}` : json;
      settled?.({ ok: true });
      return { content: [{ type: 'text', text }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      const problem = toProblem(err);
      const body = toProblemBody(problem, this.problemBase, requestId);
      settled?.({ ok: false, error: err, problem });
      return {
        isError: true,
        content: [{ type: 'text', text: JSON.stringify(body) }],
        structuredContent: body as unknown as Record<string, unknown>,
      };
    }
  }
}
