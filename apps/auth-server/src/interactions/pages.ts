import { type Scope, SCOPES } from '#libs/scopes';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page: its title as the heading, then the body (already escaped HTML). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

function hidden(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

/** `path` is the interaction's page path (interactionPath), which the forms post under. */
export function loginPage(input: { path: string; csrf: string; clientName: string; email?: string; error?: string }): string {
  const action = `${input.path}/login`;
  const error = input.error ? `<p role="alert">${escapeHtml(input.error)}</p>\n` : '';
  return page(
    'Sign in',
    `<p>Sign in to continue to ${escapeHtml(input.clientName)}.</p>
${error}<form method="post" action="${escapeHtml(action)}">
${hidden(input.csrf)}
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<p><a href="/account/forgot-password">Forgot your password?</a></p>
<p>No account yet? <a href="${escapeHtml(`/account/signup?return=${input.path}`)}">Create an account</a></p>`,
  );
}

export interface OrganizationChoice {
  id: string;
  name: string;
}

/**
 * `scopes` are those offered (checked boxes); `unavailable` those the app asked for that no role
 * of the user allows; `narrowedByOrganization` says that the user's role in some organization
 * allows fewer than are offered.
 */
export function consentPage(input: {
  path: string;
  csrf: string;
  clientName: string;
  scopes: Scope[];
  unavailable: Scope[];
  narrowedByOrganization: boolean;
  organizations: OrganizationChoice[];
  error?: string;
}): string {
  const error = input.error ? `<p role="alert">${escapeHtml(input.error)}</p>\n` : '';
  const scopes = input.scopes
    .map(
      (scope, i) =>
        `<li><input type="checkbox" id="scope-${i}" name="scope" value="${escapeHtml(scope)}" checked> <label for="scope-${i}"><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPES[scope])}</label></li>`,
    )
    .join('\n');
  const picker =
    input.organizations.length > 1
      ? `<p><label for="organization">Organization</label> <select id="organization" name="organization" required>
${input.organizations.map((o) => `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)}</option>`).join('\n')}
</select></p>`
      : input.organizations.map((o) => `<p>Organization: ${escapeHtml(o.name)}</p>`).join('');
  const notAllowed = input.unavailable.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ');
  const roleNotes = [
    ...(input.unavailable.length
      ? [`Your role does not allow ${notAllowed}: the app will not get ${input.unavailable.length === 1 ? 'it' : 'them'}.`]
      : []),
    ...(input.narrowedByOrganization ? ['Permissions your role in the chosen organization does not allow are left out.'] : []),
  ];
  const unavailable = roleNotes.map((note) => `<p>${note}</p>\n`).join('');
  return page(
    'Authorize access',
    `<p><strong>${escapeHtml(input.clientName)}</strong> asks to act for you with these permissions.</p>
${unavailable}${error}<form method="post" action="${escapeHtml(`${input.path}/confirm`)}">
${hidden(input.csrf)}
<fieldset><legend>Permissions</legend>
<ul>
${scopes}
</ul>
</fieldset>
${picker}
<p><button type="submit">Approve</button> <button type="submit" formaction="${escapeHtml(`${input.path}/abort`)}" formnovalidate>Deny</button></p>
</form>`,
  );
}

/**
 * Instead of consent while the user's email is not verified: nothing can be approved until it is.
 * The user may have the link sent again, continue once verified, or deny the app.
 */
export function verifyFirstPage(input: {
  path: string;
  csrf: string;
  clientName: string;
  email: string;
  sent?: boolean;
  error?: string;
}): string {
  const sent = input.sent ? `<p role="status">We sent a new link to ${escapeHtml(input.email)}. It works once, for 24 hours.</p>\n` : '';
  const error = input.error ? `<p role="alert">${escapeHtml(input.error)}</p>\n` : '';
  return page(
    'Verify your email address',
    `<p>Before you give ${escapeHtml(input.clientName)} access, verify your email address: open the link we emailed to ${escapeHtml(input.email)}.</p>
${sent}${error}<p><a href="${escapeHtml(input.path)}">I have verified my address: continue</a></p>
<form method="post" action="${escapeHtml(`${input.path}/resend`)}">
${hidden(input.csrf)}
<p><button type="submit">Resend the verification email</button> <button type="submit" formaction="${escapeHtml(`${input.path}/abort`)}" formnovalidate>Deny</button></p>
</form>`,
  );
}

export function problemPage(message: string): string {
  return page('Something went wrong', `<p>${escapeHtml(message)}</p>`);
}

export type DeviceCodeProblem = 'unknown' | 'expired' | 'used' | 'missing' | 'denied' | 'failed';

const DEVICE_MESSAGES: Record<DeviceCodeProblem, string> = {
  unknown: 'That code is unknown. Check the code shown on your device and try again.',
  expired: 'That code has expired. Start again on your device to get a new code.',
  used: 'That code has already been used. Start again on your device to get a new code.',
  missing: 'Enter the code shown on your device.',
  denied: 'Access was denied. You can go back to your device.',
  failed: 'Something went wrong. Start again on your device.',
};

/** The device flow's first page: the code shown on the device, then sign-in and consent. */
export function deviceCodePage(input: { xsrf: string; userCode: string; problem?: DeviceCodeProblem }): string {
  const message = input.problem
    ? `<p role="alert">${escapeHtml(DEVICE_MESSAGES[input.problem])}</p>\n`
    : '<p>Enter the code shown on your device.</p>\n';
  return page(
    'Connect a device',
    `${message}<form method="post" action="/oauth/device">
<input type="hidden" name="xsrf" value="${escapeHtml(input.xsrf)}">
<input type="hidden" name="confirm" value="yes">
<p><label for="user_code">Code</label> <input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required value="${escapeHtml(input.userCode)}"></p>
<p><button type="submit">Continue</button></p>
</form>`,
  );
}

export function deviceDonePage(clientName: string): string {
  return page('You can go back to your device', `<p>${escapeHtml(clientName)} now has the access you approved.</p>`);
}
