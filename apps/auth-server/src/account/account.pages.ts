import { type ApiKeyView, type CreatedApiKey, DEFAULT_TIME_ZONE, listedTimeZones } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';
import { html, type SafeHtml } from '#libs/web';
import { alertOf, scopeChoices, titledPage } from '../interactions/pages.js';
import { type ConnectedAppView, MANAGING_ROLES, type MyOrganization, type OrganizationDetails } from './account.service.js';
import { PASSWORD_MIN_LENGTH } from './signup-form.js';

function hidden(name: string, value: string): SafeHtml {
  return html`<input type="hidden" name="${name}" value="${value}">`;
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
function timeZoneSelect(id: string, selected: string, describedBy: string): SafeHtml {
  const options = listedTimeZones().map((zone) => html`<option${zone === selected ? html` selected` : ''}>${zone}</option>`);
  return html`<select id="${id}" name="timeZone" aria-describedby="${describedBy}">${options}</select>`;
}

function status(message: string | undefined): SafeHtml {
  return message ? html`<p class="success" role="status">${message}</p>\n` : html``;
}

const NAV_LINKS = [
  { href: '/account', label: 'Account' },
  { href: '/account/api-keys', label: 'API keys' },
  { href: '/account/apps', label: 'Connected apps' },
] as const;

type NavHref = (typeof NAV_LINKS)[number]['href'];

/** The signed-in pages' navigation (in the site header), the current page marked, with the sign-out button. */
function nav(csrf: string, current: NavHref | undefined): SafeHtml {
  return html`<nav aria-label="Account">
<ul>
${NAV_LINKS.map(
  ({ href, label }) => html`<li><a href="${href}"${href === current ? html` aria-current="page"` : ''}>${label}</a></li>\n`,
)}</ul>
<form method="post" action="/account/logout">${hidden('csrf', csrf)}<button type="submit">Sign out</button></form>
</nav>`;
}

/** A text, email or password input with its label (`attributes` are the input's own, already markup). */
function field(id: string, label: string, attributes: SafeHtml, hint?: string): SafeHtml {
  const hinted = hint ? html` aria-describedby="${id}-hint"> <span class="hint" id="${id}-hint">${hint}</span>` : html`>`;
  return html`<div class="field"><label for="${id}">${label}</label> <input id="${id}" name="${id}" ${attributes}${hinted}</div>`;
}

export function signupPage(input: {
  csrf: string;
  returnTo?: string;
  email?: string;
  organizationName?: string;
  timeZone?: string;
  error?: string;
}): string {
  return titledPage(
    'Create account',
    html`${alertOf(input.error)}<form method="post" action="/account/signup">
${hidden('csrf', input.csrf)}
${input.returnTo ? hidden('return', input.returnTo) : ''}
${field('email', 'Email', html`type="email" autocomplete="username" required value="${input.email ?? ''}"`)}
${field('password', 'Password', html`type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}"`, `At least ${PASSWORD_MIN_LENGTH} characters.`)}
<div class="field"><label for="organization">Organization name</label> <input id="organization" name="organization" type="text" autocomplete="organization" required value="${input.organizationName ?? ''}"></div>
<div class="field"><label for="time-zone">Time zone</label> ${timeZoneSelect('time-zone', input.timeZone ?? DEFAULT_TIME_ZONE, 'time-zone-hint')} <span class="hint" id="time-zone-hint">${TIME_ZONE_HINT}</span></div>
<p><button type="submit">Create account</button></p>
</form>
<p>Already have an account? <a href="${input.returnTo ?? '/account/login'}">Sign in</a></p>`,
  );
}

export function accountLoginPage(input: { csrf: string; email?: string; error?: string }): string {
  return titledPage(
    'Sign in',
    html`${alertOf(input.error)}<form method="post" action="/account/login">
${hidden('csrf', input.csrf)}
${field('email', 'Email', html`type="email" autocomplete="username" required value="${input.email ?? ''}"`)}
${field('password', 'Password', html`type="password" autocomplete="current-password" required`)}
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
function timeZoneForm(organizationId: string, timeZone: string, index: number, csrf: string): SafeHtml {
  const id = `time-zone-${index}`;
  return html`<form method="post" action="${withOrg('/account/time-zone', organizationId)}">
${hidden('csrf', csrf)}
<p class="field-inline"><label for="${id}">Time zone</label> ${timeZoneSelect(id, timeZone, `${id}-hint`)} <button type="submit">Save time zone</button></p>
<p class="hint" id="${id}-hint">New signups take this zone unless they are given one; signups there are keep theirs.</p>
</form>`;
}

/** What an unverified user sees where a verified address is needed, with the button that mails the link again. */
export function verificationNotice(csrf: string, email: string): SafeHtml {
  return html`<section class="notice" aria-labelledby="verify-heading">
<h2 id="verify-heading">Verify your email address</h2>
<p>We emailed a link to ${email}. Open it to verify your address: until then you cannot create API keys or give apps access to your account.</p>
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
  const organizations = input.organizations.map(({ organization, role, members }, index) => {
    const error = input.timeZoneError?.organizationId === organization.id ? input.timeZoneError.message : undefined;
    const zone = MANAGING_ROLES.includes(role)
      ? html`${alertOf(error)}${timeZoneForm(organization.id, organization.timeZone, index, input.csrf)}
`
      : '';
    return html`<section>
<h2>${organization.name}</h2>
<p>Tier: ${organization.tier}. Your role: ${role}. Time zone: ${organization.timeZone}.</p>
${zone}<h3>Members</h3>
<table>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th></tr></thead>
<tbody>
${members.map((m) => html`<tr><td>${m.email}</td><td>${m.role}</td></tr>\n`)}</tbody>
</table>
<p><a href="${withOrg('/account/api-keys', organization.id)}">API keys of ${organization.name}</a></p>
</section>\n`;
  });
  return titledPage(
    'Your account',
    html`${status(input.notice)}<p>Signed in as ${input.email}.</p>
${input.verified ? '' : html`${verificationNotice(input.csrf, input.email)}\n`}${organizations}
<p><a href="/account/apps">Connected apps</a></p>`,
    { nav: nav(input.csrf, '/account') },
  );
}

/** A GET form choosing the organization a page acts on, when the user has several. */
function organizationPicker(path: string, chosen: MyOrganization, all: MyOrganization[]): SafeHtml {
  if (all.length < 2) return html`<p>Organization: ${chosen.organization.name}</p>`;
  const options = all.map(
    ({ organization: o }) => html`<option value="${o.id}"${o.id === chosen.organization.id ? html` selected` : ''}>${o.name}</option>\n`,
  );
  return html`<form method="get" action="${path}">
<p class="field-inline"><label for="org">Organization</label> <select id="org" name="org">
${options}</select> <button type="submit" class="secondary">Show</button></p>
</form>`;
}

function keyRow(key: ApiKeyView, csrf: string, canManage: boolean): SafeHtml {
  const revoke =
    canManage && !key.revokedAt
      ? html`<form method="post" action="/account/api-keys/${encodeURIComponent(key.id)}/revoke">${hidden('csrf', csrf)}<button type="submit" class="danger">Revoke</button></form>`
      : '';
  return html`<tr><td>${key.name ?? ''}</td><td><code>${key.prefix}</code></td><td>${key.mode}</td><td>${key.scopes.join(' ')}</td><td>${date(key.createdAt)}</td><td>${key.revokedAt ? date(key.revokedAt) : 'No'}</td><td>${revoke}</td></tr>\n`;
}

function createKeyForm(organizationId: string, csrf: string): SafeHtml {
  return html`<h2>Create an API key</h2>
<form method="post" action="${withOrg('/account/api-keys', organizationId)}">
${hidden('csrf', csrf)}
<div class="field"><label for="name">Name</label> <input id="name" name="name" type="text" maxlength="100"></div>
<div class="field"><label for="mode">Mode</label> <select id="mode" name="mode">
<option value="test" selected>test (sandbox)</option>
<option value="live">live</option>
</select></div>
<fieldset><legend>Scopes</legend>
${scopeChoices(ALL_SCOPES)}
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
    ? html`<section class="keep">
<h2>Your new API key</h2>
<p><code>${input.created.key}</code></p>
<p><strong>Copy this key now. It will not be shown again.</strong></p>
</section>\n`
    : '';
  const list = input.keys.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="API keys">
<table>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col">Action</th></tr></thead>
<tbody>
${input.keys.map((k) => keyRow(k, input.csrf, canManage))}</tbody>
</table>
</div>`
    : html`<p>No API keys yet.</p>`;
  const create =
    input.unverifiedEmail === undefined
      ? createKeyForm(input.chosen.organization.id, input.csrf)
      : verificationNotice(input.csrf, input.unverifiedEmail);
  const manage = canManage ? create : html`<p>Only owners and admins of the organization can create or revoke API keys.</p>`;
  return titledPage(
    'API keys',
    html`${organizationPicker('/account/api-keys', input.chosen, input.all)}
${alertOf(input.error)}${created}${list}
${manage}`,
    { nav: nav(input.csrf, '/account/api-keys'), wide: true },
  );
}

export function connectedAppsPage(input: { csrf: string; apps: ConnectedAppView[] }): string {
  const items = input.apps.map((app) => {
    const resources = app.resources.map(
      (r) => html`<li>${r.resource}: ${r.scopes.map((s, i) => html`${i ? ' ' : ''}<code>${s}</code>`)}</li>\n`,
    );
    return html`<li class="card">
<h2>${app.clientName ?? app.clientId}</h2>
<p>Organization: ${app.organizationName ?? app.organizationId ?? 'none'}. Connected on ${date(app.grantedAt)}.</p>
<ul>
${resources}</ul>
<form method="post" action="/account/apps/${encodeURIComponent(app.grantId)}/revoke">${hidden('csrf', input.csrf)}<button type="submit" class="danger">Revoke</button></form>
</li>\n`;
  });
  return titledPage(
    'Connected apps',
    input.apps.length ? html`<ul class="cards">\n${items}</ul>` : html`<p>No apps are connected to your account.</p>`,
    { nav: nav(input.csrf, '/account/apps') },
  );
}

export function accountProblemPage(message: string, link: SafeHtml = html`<p><a href="/account">Back to your account</a></p>`): string {
  return titledPage('Something went wrong', html`<p>${message}</p>\n${link}`);
}

export function verificationSentPage(input: { csrf: string; email: string }): string {
  return titledPage(
    'Check your email',
    html`<p class="success" role="status">We sent a new verification link to ${input.email}. It works once, for 24 hours; earlier links no longer work.</p>
<p><a href="/account">Back to your account</a></p>`,
    { nav: nav(input.csrf, undefined) },
  );
}

/** The page a verification link opens: a GET verifies nothing (mail scanners follow links), the button does. */
export function verifyEmailPage(input: { csrf: string; action: string }): string {
  return titledPage(
    'Verify your email address',
    html`<p>Confirm that this email address is yours.</p>
<form method="post" action="${input.action}">
${hidden('csrf', input.csrf)}
<p><button type="submit">Verify my email address</button></p>
</form>`,
  );
}

export function emailVerifiedPage(): string {
  return titledPage(
    'Email address verified',
    html`<p class="success" role="status">Thank you: your email address is verified. You can now create API keys and give apps access to your account.</p>
<p>If you were giving an app access, go back to its page and continue.</p>
<p><a href="/account">Go to your account</a></p>`,
  );
}

/** A link of an account email that no longer works, with the way to get a new one. */
export function linkInvalidPage(next: { href: string; label: string }): string {
  return accountProblemPage(
    'This link is no longer valid: it was used already, it expired, or a newer link replaced it.',
    html`<p><a href="${next.href}">${next.label}</a></p>`,
  );
}

export function forgotPasswordPage(input: { csrf: string; email?: string; error?: string; sentTo?: string }): string {
  const sent =
    input.sentTo === undefined
      ? ''
      : status(`If an account exists for ${input.sentTo}, we sent it a link to choose a new password. The link works once, for one hour.`);
  return titledPage(
    'Reset your password',
    html`${sent}${alertOf(input.error)}<p>Enter the email address of your account: we will email you a link to choose a new password.</p>
<form method="post" action="/account/forgot-password">
${hidden('csrf', input.csrf)}
${field('email', 'Email', html`type="email" autocomplete="username" required value="${input.email ?? ''}"`)}
<p><button type="submit">Send reset link</button></p>
</form>
<p><a href="/account/login">Back to sign in</a></p>`,
  );
}

export function resetPasswordPage(input: { csrf: string; action: string; error?: string }): string {
  return titledPage(
    'Choose a new password',
    html`${alertOf(input.error)}<form method="post" action="${input.action}">
${hidden('csrf', input.csrf)}
${field('password', 'New password', html`type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}"`, `At least ${PASSWORD_MIN_LENGTH} characters.`)}
<p>Setting a new password signs you out everywhere else.</p>
<p><button type="submit">Set new password</button></p>
</form>`,
  );
}
