import { type Scope, SCOPES } from '#libs/scopes';
import { html, layout, type SafeHtml } from '#libs/web';

/** A page of the shared layout whose heading is its title; the body follows the heading. */
export function titledPage(title: string, body: SafeHtml, options: { nav?: SafeHtml; wide?: boolean } = {}): string {
  return layout({ title, ...options, main: html`<h1>${title}</h1>\n${body}` }).value;
}

/** An error of a form, announced as it appears. */
export function alertOf(message: string | undefined): SafeHtml {
  return message ? html`<p role="alert">${message}</p>\n` : html``;
}

function hidden(csrf: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrf}">`;
}

/** `path` is the interaction's page path (interactionPath), which the forms post under. */
export function loginPage(input: { path: string; csrf: string; clientName: string; email?: string; error?: string }): string {
  return titledPage(
    'Sign in',
    html`<p>Sign in to continue to ${input.clientName}.</p>
${alertOf(input.error)}<form method="post" action="${input.path}/login">
${hidden(input.csrf)}
<div class="field"><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ''}"></div>
<div class="field"><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></div>
<p><button type="submit">Sign in</button></p>
</form>
<p><a href="/account/forgot-password">Forgot your password?</a></p>
<p>No account yet? <a href="/account/signup?return=${input.path}">Create an account</a></p>`,
  );
}

export interface OrganizationChoice {
  id: string;
  name: string;
}

/** A checkbox per scope, each checked, labelled with the scope and what it allows. */
export function scopeChoices(scopes: readonly Scope[]): SafeHtml {
  return html`<ul>
${scopes.map(
  (scope, i) =>
    html`<li><input type="checkbox" id="scope-${i}" name="scope" value="${scope}" checked> <label for="scope-${i}"><code>${scope}</code>: ${SCOPES[scope]}</label></li>\n`,
)}</ul>`;
}

/** Approve (the form's action) and Deny (the interaction's abort). */
function approveOrDeny(path: string, approve: string): SafeHtml {
  return html`<p class="toolbar"><button type="submit">${approve}</button> <button type="submit" class="secondary" formaction="${path}/abort" formnovalidate>Deny</button></p>`;
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
  const picker =
    input.organizations.length > 1
      ? html`<div class="field"><label for="organization">Organization</label> <select id="organization" name="organization" required>
${input.organizations.map((o) => html`<option value="${o.id}">${o.name}</option>\n`)}</select></div>`
      : input.organizations.map((o) => html`<p>Organization: ${o.name}</p>`);
  const notAllowed = input.unavailable.map((scope, i) => html`${i ? ', ' : ''}<code>${scope}</code>`);
  const roleNotes = [
    ...(input.unavailable.length
      ? [html`Your role does not allow ${notAllowed}: the app will not get ${input.unavailable.length === 1 ? 'it' : 'them'}.`]
      : []),
    ...(input.narrowedByOrganization ? [html`Permissions your role in the chosen organization does not allow are left out.`] : []),
  ];
  return titledPage(
    'Authorize access',
    html`<p><strong>${input.clientName}</strong> asks to act for you with these permissions.</p>
${roleNotes.map((note) => html`<p>${note}</p>\n`)}${alertOf(input.error)}<form method="post" action="${input.path}/confirm">
${hidden(input.csrf)}
<fieldset><legend>Permissions</legend>
${scopeChoices(input.scopes)}
</fieldset>
${picker}
${approveOrDeny(input.path, 'Approve')}
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
  const sent = input.sent
    ? html`<p class="success" role="status">We sent a new link to ${input.email}. It works once, for 24 hours.</p>\n`
    : html``;
  return titledPage(
    'Verify your email address',
    html`<p>Before you give ${input.clientName} access, verify your email address: open the link we emailed to ${input.email}.</p>
${sent}${alertOf(input.error)}<p><a href="${input.path}">I have verified my address: continue</a></p>
<form method="post" action="${input.path}/resend">
${hidden(input.csrf)}
${approveOrDeny(input.path, 'Resend the verification email')}
</form>`,
  );
}

export function problemPage(message: string): string {
  return titledPage('Something went wrong', html`<p>${message}</p>`);
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
  const message = input.problem ? alertOf(DEVICE_MESSAGES[input.problem]) : html`<p>Enter the code shown on your device.</p>\n`;
  return titledPage(
    'Connect a device',
    html`${message}<form method="post" action="/oauth/device">
<input type="hidden" name="xsrf" value="${input.xsrf}">
<input type="hidden" name="confirm" value="yes">
<div class="field"><label for="user_code">Code</label> <input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required value="${input.userCode}"></div>
<p><button type="submit">Continue</button></p>
</form>`,
  );
}

export function deviceDonePage(clientName: string): string {
  return titledPage('You can go back to your device', html`<p>${clientName} now has the access you approved.</p>`);
}
