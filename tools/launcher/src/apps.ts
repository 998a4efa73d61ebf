import { apiGatewayApp } from '#apps/api-gateway';
import { authServerApp } from '#apps/auth-server';
import { mcpServerApp } from '#apps/mcp-server';
import { remindersServiceApp } from '#apps/reminders-service';
import { signupsServiceApp } from '#apps/signups-service';
import { webhooksDispatcherApp } from '#apps/webhooks-dispatcher';
import type { AppDefinition } from '#libs/runtime';

/** Every app, in boot order: services first, the edges last (so :3000 answers once all are up). */
export const APPS: readonly AppDefinition[] = [
  authServerApp,
  signupsServiceApp,
  webhooksDispatcherApp,
  remindersServiceApp,
  mcpServerApp,
  apiGatewayApp,
];
