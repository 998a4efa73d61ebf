import { FieldProblem, publicUrlsSpec, trustProxyField, type ConfigOf, type Field } from '#libs/config';
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
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
  allowedOrigins: originsField('MCP_ALLOWED_ORIGINS'),
};

export type McpConfig = ConfigOf<typeof mcpSpec>;

/** Injection token of the mcp-server's validated configuration. */
export const MCP_CONFIG = Symbol('MCP_CONFIG');
