import { type ConfigOf, type Field, FieldProblem, publicUrlsSpec, trustProxyField } from '#libs/config';

/** Where the mcp-server serves MCP; MCP_URL names it as clients reach it (its path must be this one). */
export const MCP_PATH = '/mcp';

/** MCP_URL, which must end in the path the server answers on: the token audience and the metadata path derive from it. */
function mcpUrlField(): Field<string> {
  const { mcpUrl } = publicUrlsSpec;
  return {
    name: mcpUrl.name,
    read(raw) {
      const value = mcpUrl.read(raw);
      if (new URL(value).pathname !== MCP_PATH)
        throw new FieldProblem(`${mcpUrl.name} must end in ${MCP_PATH}, where the mcp-server answers (got "${value}")`);
      return value;
    },
  };
}
import { edgeLimitsSpec } from '#libs/edge';

/** Origins allowed to call /mcp from a browser: absent, only MCP_URL's own origin. */
function originsField(name: string): Field<string[] | undefined> {
  return {
    name,
    read(raw) {
      if (raw === undefined || raw.trim() === '') return undefined;
      return raw.split(',').map((part) => {
        const value = part.trim();
        if (!URL.canParse(value) || new URL(value).origin !== value) {
          throw new FieldProblem(`${name} must be a comma-separated list of origins such as https://app.example.com (got "${value}")`);
        }
        return value;
      });
    },
  };
}

export const mcpSpec = {
  ...publicUrlsSpec,
  mcpUrl: mcpUrlField(),
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
  allowedOrigins: originsField('MCP_ALLOWED_ORIGINS'),
};

export type McpConfig = ConfigOf<typeof mcpSpec>;
