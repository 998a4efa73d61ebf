import type { DemoAccount } from './seed.js';

export interface Surfaces {
  publicBaseUrl: string;
  authUrl: string;
  mcpUrl: string;
}

export function banner(mode: string, surfaces: Surfaces, adminToken: string, demo?: DemoAccount): string {
  const lines = [
    '',
    `Signup platform is running (${mode}).`,
    '',
    `  REST API      ${surfaces.publicBaseUrl}   (docs: ${surfaces.publicBaseUrl}/docs)`,
    `  Auth server   ${surfaces.authUrl}`,
    `  MCP           ${surfaces.mcpUrl}`,
    `  Admin token   ${adminToken}`,
  ];
  if (demo) {
    lines.push(
      '',
      `  Demo organization   ${demo.organizationName} (${demo.organizationId}), tier pro`,
      `  Demo user           ${demo.email} / ${demo.password}`,
      `  Sandbox API key     ${demo.apiKey}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${demo.apiKey}" ${surfaces.publicBaseUrl}/me`,
    );
  } else {
    lines.push('', 'Create an organization and a key:', '  npm run --silent admin -- org:create --name "My org" --tier pro');
  }
  return `${lines.join('\n')}\n\n`;
}
