import type { DemoAccount } from './seed.js';

export interface Surfaces {
  publicBaseUrl: string;
  authUrl: string;
  mcpUrl: string;
}

/** Where the stack's emails can be read: the mailbox page when it is on and nothing is sent (MAILBOX_PAGE, no SMTP_URL). */
export function mailboxUrl(env: Record<string, string | undefined>, publicBaseUrl: string): string | undefined {
  if (env.MAILBOX_PAGE !== 'true' || env.SMTP_URL) return undefined;
  return `${new URL(publicBaseUrl).origin}/mailbox`;
}

export function banner(mode: string, surfaces: Surfaces, adminToken: string, demo?: DemoAccount, mailbox?: string): string {
  const lines = [
    '',
    `Signup platform is running (${mode}).`,
    '',
    `  Dashboard     ${new URL(surfaces.publicBaseUrl).origin}/app   (${demo ? 'sign in as the demo user below' : `no account yet? ${surfaces.authUrl}/account/signup`})`,
    `  REST API      ${surfaces.publicBaseUrl}   (docs: ${surfaces.publicBaseUrl}/docs)`,
    `  Auth server   ${surfaces.authUrl}`,
    `  MCP           ${surfaces.mcpUrl}`,
    ...(mailbox ? [`  Mailbox       ${mailbox}   (every email lands here: nothing is sent without SMTP_URL)`] : []),
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
