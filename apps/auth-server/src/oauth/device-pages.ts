import type { IncomingMessage } from 'node:http';
import { deviceCodePage, type DeviceCodeProblem, deviceDonePage } from '../interactions/pages.js';

/** The user code from `?user_code=` of GET /oauth/device, taken off the URL to prefill the form. */
export const deviceCodePrefill = new WeakMap<IncomingMessage, string>();

/** What oidc-provider's device pages receive (its context and the re-render errors). */
interface DeviceContext {
  req: IncomingMessage;
  body: unknown;
  status: number;
  oidc: { client?: { clientName?: string; clientId: string } };
}

const DEVICE_PROBLEMS: Record<string, DeviceCodeProblem> = {
  NotFoundError: 'unknown',
  ExpiredError: 'expired',
  AlreadyUsedError: 'used',
  NoCodeError: 'missing',
  AbortedError: 'denied',
};

function xsrfOf(form: string): string {
  return /name="xsrf" value="([^"]*)"/.exec(form)?.[1] ?? '';
}

/** The device page: one field "Code" and "Continue", which goes straight on to sign-in and consent. */
function renderDeviceCodePage(ctx: DeviceContext, form: string, userCode?: string, err?: { name?: string; userCode?: string }): void {
  const problem = err ? (DEVICE_PROBLEMS[err.name ?? ''] ?? 'failed') : undefined;
  ctx.body = deviceCodePage({ xsrf: xsrfOf(form), userCode: err?.userCode ?? userCode ?? deviceCodePrefill.get(ctx.req) ?? '', problem });
  if (problem && problem !== 'denied') ctx.status = 400;
}

/** The device flow's pages, rendered through oidc-provider (its deviceFlow feature's page sources). */
export const devicePages = {
  userCodeInputSource: (ctx: DeviceContext, form: string, _out: unknown, err?: { name?: string; userCode?: string }) => {
    renderDeviceCodePage(ctx, form, undefined, err);
  },
  // Not reached from our page, which confirms with the code; a bare POST gets the page again.
  userCodeConfirmSource: (ctx: DeviceContext, form: string, _client: unknown, _info: unknown, userCode: string) => {
    renderDeviceCodePage(ctx, form, userCode);
  },
  successSource: (ctx: DeviceContext) => {
    const client = ctx.oidc.client;
    ctx.body = deviceDonePage(client?.clientName ?? client?.clientId ?? 'The application');
  },
};
