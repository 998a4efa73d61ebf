import { type ApiKeyView, type CreatedApiKey, DEFAULT_TIME_ZONE, listedTimeZones } from '#libs/contracts';
import { ALL_SCOPES, SCOPES } from '#libs/scopes';
import { escapeHtml, page } from '../interactions/pages.js';
import { type ConnectedAppView, MANAGING_ROLES, type MyOrganization, type OrganizationDetails } from './account.service.js';
import { PASSWORD_MIN_LENGTH } from './signup-form.js';

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function alert(message: string | undefined): string {
  return message ? `<p role="alert">${escapeHtml(message)}</p>\n` : '';
}

const TIME_ZONE_HINT =
  'The dates and times of your signups are shown to people in this zone. You can change it later, and each signup can have its own.';

function withOrg(path: string, organizationId: string): string {
  return `${path}?org=${encodeURIComponent(organizationId)}`;
}

function date(value: Date | string): string {
  return new Date(value).toISOString().slice(0, 10);
}

/** A select of every time zone the runtime lists, named `timeZone`, with `selected` chosen. */
function timeZoneSelect(id: string, selected: string, describedBy: string): string {
  const options = listedTimeZones()
    .map((zone) => `<option${zone === selected ? ' selected' : ''}>${escapeHtml(zone)}</option>`)
    .join('');
  return `<select id="${id}" name="timeZone" aria-describedby="${describedBy}">${options}</select>`;
}

function status(message: string | undefined): string {
  return message ? `<p role="status">${escapeHtml(message)}</p>\n` : '';
}

/** The signed-in pages' navigation, with the sign-out button. */
function nav(csrf: string): string {
  return `<nav aria-label="Account">
<ul>
<li><a href="/account">Account</a></li>
<li><a href="/account/api-keys">API keys</a></li>
<li><a href="/account/apps">Connected apps</a></li>
</ul>
<form method="post" action="/account/logout">${hidden('csrf', csrf)}<button type="submit">Sign out</button></form>
</nav>`;
}

export function signupPage(input: {
  csrf: string;
  returnTo?: string;
  email?: string;
  organizationName?: string;
  timeZone?: string;
  error?: string;
}): string {
  const back = input.returnTo ? hidden('return', input.returnTo) : '';
  const signIn = input.returnTo ? escapeHtml(input.returnTo) : '/account/login';
  return page(
    'Create account',
    `${alert(input.error)}<form method="post" action="/account/signup">
${hidden('csrf', input.csrf)}
${back}
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-hint"> <span id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</span></p>
<p><label for="organization">Organization name</label> <input id="organization" name="organization" type="text" autocomplete="organization" required value="${escapeHtml(input.organizationName ?? '')}"></p>
<p><label for="time-zone">Time zone</label> ${timeZoneSelect('time-zone', input.timeZone ?? DEFAULT_TIME_ZONE, 'time-zone-hint')} <span id="time-zone-hint">${TIME_ZONE_HINT}</span></p>
<p><button type="submit">Create account</button></p>
</form>
<p>Already have an account? <a href="${signIn}">Sign in</a></p>`,
  );
}

export function accountLoginPage(input: { csrf: string; email?: string; error?: string }): string {
  return page(
    'Sign in',
    `${alert(input.error)}<form method="post" action="/account/login">
${hidden('csrf', input.csrf)}
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<p><a href="/account/forgot-password">Forgot your password?</a></p>
<p>No account yet? <a href="/account/signup">Create an account</a></p>`,
  );
}

/** A time zone that was refused, shown in its organization's section. */
export interface TimeZoneError {
  organizationId: string;
  message: string;
}

/** Owners and admins change the organization's time zone here; `index` makes the field's id unique on the page. */
function timeZoneForm(organizationId: string, timeZone: string, index: number, csrf: string): string {
  const id = `time-zone-${index}`;
  return `<form method="post" action="${escapeHtml(withOrg('/account/time-zone', organizationId))}">
${hidden('csrf', csrf)}
<p><label for="${id}">Time zone</label> ${timeZoneSelect(id, timeZone, `${id}-hint`)} <button type="submit">Save time zone</button></p>
<p id="${id}-hint">New signups take this zone unless they are given one; signups there are keep theirs.</p>
</form>`;
}

/** What an unverified user sees where a verified address is needed, with the button that mails the link again. */
export function verificationNotice(csrf: string, email: string): string {
  return `<section aria-labelledby="verify-heading">
<h2 id="verify-heading">Verify your email address</h2>
<p>We emailed a link to ${escapeHtml(email)}. Open it to verify your address: until then you cannot create API keys or give apps access to your account.</p>
<form method="post" action="/account/verification/resend">${hidden('csrf', csrf)}<button type="submit">Resend the verification email</button></form>
</section>`;
}

export function overviewPage(input: {
  csrf: string;
  email: string;
  verified: boolean;
  organizations: OrganizationDetails[];
  timeZoneError?: TimeZoneError;
  notice?: string;
}): string {
  const organizations = input.organizations
    .map(({ organization, role, members }, index) => {
      const error = input.timeZoneError?.organizationId === organization.id ? input.timeZoneError.message : undefined;
      const zone = MANAGING_ROLES.includes(role)
        ? `${alert(error)}${timeZoneForm(organization.id, organization.timeZone, index, input.csrf)}
`
        : '';
      return `<section>
<h2>${escapeHtml(organization.name)}</h2>
<p>Tier: ${escapeHtml(organization.tier)}. Your role: ${escapeHtml(role)}. Time zone: ${escapeHtml(organization.timeZone)}.</p>
${zone}<h3>Members</h3>
<table>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th></tr></thead>
<tbody>
${members.map((m) => `<tr><td>${escapeHtml(m.email)}</td><td>${escapeHtml(m.role)}</td></tr>`).join('\n')}
</tbody>
</table>
<p><a href="${escapeHtml(withOrg('/account/api-keys', organization.id))}">API keys of ${escapeHtml(organization.name)}</a></p>
</section>`;
    })
    .join('\n');
  return page(
    'Your account',
    `${nav(input.csrf)}
${status(input.notice)}<p>Signed in as ${escapeHtml(input.email)}.</p>
${input.verified ? '' : `${verificationNotice(input.csrf, input.email)}\n`}${organizations}
<p><a href="/account/apps">Connected apps</a></p>`,
  );
}

/** A GET form choosing the organization a page acts on, when the user has several. */
function organizationPicker(path: string, chosen: MyOrganization, all: MyOrganization[]): string {
  if (all.length < 2) return `<p>Organization: ${escapeHtml(chosen.organization.name)}</p>`;
  const options = all
    .map(
      ({ organization: o }) =>
        `<option value="${escapeHtml(o.id)}"${o.id === chosen.organization.id ? ' selected' : ''}>${escapeHtml(o.name)}</option>`,
    )
    .join('\n');
  return `<form method="get" action="${path}">
<p><label for="org">Organization</label> <select id="org" name="org">
${options}
</select> <button type="submit">Show</button></p>
</form>`;
}

function keyRow(key: ApiKeyView, csrf: string, canManage: boolean): string {
  const revoke =
    canManage && !key.revokedAt
      ? `<form method="post" action="${escapeHtml(`/account/api-keys/${encodeURIComponent(key.id)}/revoke`)}">${hidden('csrf', csrf)}<button type="submit">Revoke</button></form>`
      : '';
  return `<tr><td>${escapeHtml(key.name ?? '')}</td><td><code>${escapeHtml(key.prefix)}</code></td><td>${escapeHtml(key.mode)}</td><td>${escapeHtml(key.scopes.join(' '))}</td><td>${date(key.createdAt)}</td><td>${key.revokedAt ? date(key.revokedAt) : 'No'}</td><td>${revoke}</td></tr>`;
}

function createKeyForm(organizationId: string, csrf: string): string {
  const scopes = ALL_SCOPES.map(
    (scope, i) =>
      `<li><input type="checkbox" id="scope-${i}" name="scope" value="${escapeHtml(scope)}" checked> <label for="scope-${i}"><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPES[scope])}</label></li>`,
  ).join('\n');
  return `<h2>Create an API key</h2>
<form method="post" action="${escapeHtml(withOrg('/account/api-keys', organizationId))}">
${hidden('csrf', csrf)}
<p><label for="name">Name</label> <input id="name" name="name" type="text" maxlength="100"></p>
<p><label for="mode">Mode</label> <select id="mode" name="mode">
<option value="test" selected>test (sandbox)</option>
<option value="live">live</option>
</select></p>
<fieldset><legend>Scopes</legend>
<ul>
${scopes}
</ul>
</fieldset>
<p><button type="submit">Create key</button></p>
</form>`;
}

export function apiKeysPage(input: {
  csrf: string;
  chosen: MyOrganization;
  all: MyOrganization[];
  keys: ApiKeyView[];
  /** The user's email when it is not verified yet: creating a key waits for it. */
  unverifiedEmail?: string;
  created?: CreatedApiKey;
  error?: string;
}): string {
  const canManage = input.chosen.role === 'owner' || input.chosen.role === 'admin';
  const created = input.created
    ? `<section>
<h2>Your new API key</h2>
<p><code>${escapeHtml(input.created.key)}</code></p>
<p><strong>Copy this key now. It will not be shown again.</strong></p>
</section>\n`
    : '';
  const rows = input.keys.map((k) => keyRow(k, input.csrf, canManage)).join('\n');
  const list = input.keys.length
    ? `<table>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col">Action</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No API keys yet.</p>';
  const create =
    input.unverifiedEmail === undefined
      ? createKeyForm(input.chosen.organization.id, input.csrf)
      : verificationNotice(input.csrf, input.unverifiedEmail);
  const manage = canManage ? create : '<p>Only owners and admins of the organization can create or revoke API keys.</p>';
  return page(
    'API keys',
    `${nav(input.csrf)}
${organizationPicker('/account/api-keys', input.chosen, input.all)}
${alert(input.error)}${created}${list}
${manage}`,
  );
}

export function connectedAppsPage(input: { csrf: string; apps: ConnectedAppView[] }): string {
  const items = input.apps
    .map((app) => {
      const resources = app.resources
        .map((r) => `<li>${escapeHtml(r.resource)}: ${r.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</li>`)
        .join('\n');
      return `<li>
<h2>${escapeHtml(app.clientName ?? app.clientId)}</h2>
<p>Organization: ${escapeHtml(app.organizationName ?? app.organizationId ?? 'none')}. Connected on ${date(app.grantedAt)}.</p>
<ul>
${resources}
</ul>
<form method="post" action="${escapeHtml(`/account/apps/${encodeURIComponent(app.grantId)}/revoke`)}">${hidden('csrf', input.csrf)}<button type="submit">Revoke</button></form>
</li>`;
    })
    .join('\n');
  return page(
    'Connected apps',
    `${nav(input.csrf)}\n${input.apps.length ? `<ul>\n${items}\n</ul>` : '<p>No apps are connected to your account.</p>'}`,
  );
}

export function accountProblemPage(message: string, link = '<p><a href="/account">Back to your account</a></p>'): string {
  return page('Something went wrong', `<p>${escapeHtml(message)}</p>\n${link}`);
}

export function verificationSentPage(input: { csrf: string; email: string }): string {
  return page(
    'Check your email',
    `${nav(input.csrf)}
<p role="status">We sent a new verification link to ${escapeHtml(input.email)}. It works once, for 24 hours; earlier links no longer work.</p>
<p><a href="/account">Back to your account</a></p>`,
  );
}

/** The page a verification link opens: a GET verifies nothing (mail scanners follow links), the button does. */
export function verifyEmailPage(input: { csrf: string; action: string }): string {
  return page(
    'Verify your email address',
    `<p>Confirm that this email address is yours.</p>
<form method="post" action="${escapeHtml(input.action)}">
${hidden('csrf', input.csrf)}
<p><button type="submit">Verify my email address</button></p>
</form>`,
  );
}

export function emailVerifiedPage(): string {
  return page(
    'Email address verified',
    `<p role="status">Thank you: your email address is verified. You can now create API keys and give apps access to your account.</p>
<p>If you were giving an app access, go back to its page and continue.</p>
<p><a href="/account">Go to your account</a></p>`,
  );
}

/** A link of an account email that no longer works, with the way to get a new one. */
export function linkInvalidPage(next: { href: string; label: string }): string {
  return accountProblemPage(
    'This link is no longer valid: it was used already, it expired, or a newer link replaced it.',
    `<p><a href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a></p>`,
  );
}

export function forgotPasswordPage(input: { csrf: string; email?: string; error?: string; sentTo?: string }): string {
  const sent =
    input.sentTo === undefined
      ? ''
      : status(`If an account exists for ${input.sentTo}, we sent it a link to choose a new password. The link works once, for one hour.`);
  return page(
    'Reset your password',
    `${sent}${alert(input.error)}<p>Enter the email address of your account: we will email you a link to choose a new password.</p>
<form method="post" action="/account/forgot-password">
${hidden('csrf', input.csrf)}
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"></p>
<p><button type="submit">Send reset link</button></p>
</form>
<p><a href="/account/login">Back to sign in</a></p>`,
  );
}

export function resetPasswordPage(input: { csrf: string; action: string; error?: string }): string {
  return page(
    'Choose a new password',
    `${alert(input.error)}<form method="post" action="${escapeHtml(input.action)}">
${hidden('csrf', input.csrf)}
<p><label for="password">New password</label> <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-hint"> <span id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</span></p>
<p>Setting a new password signs you out everywhere else.</p>
<p><button type="submit">Set new password</button></p>
</form>`,
  );
}
