import { formatDateTime, listedTimeZones } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { html, layout, type SafeHtml } from '#libs/web';
import { SCRIPT_PATH } from '../script.js';

/** A membership of the signed-in user, as GET /me lists it for an OAuth credential. */
export interface Membership {
  id: string;
  name: string;
  role: string;
}

/** Who is signed in, from GET /me with the session's token. */
export interface Viewer {
  email: string;
  organization: { id: string; name: string; tier: string; timeZone?: string };
  role: string;
  organizations: Membership[];
  /** The session's anti-CSRF token, carried by every form. */
  csrf: string;
}

/** Whether the viewer's role may change things (a member reads only; the API refuses their writes anyway). */
export const canWrite = (viewer: Viewer): boolean => viewer.role === 'owner' || viewer.role === 'admin';

export type Section = 'signups' | 'webhooks';

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

export const when = (iso: string, timeZone: string): SafeHtml => html`<time datetime="${iso}">${formatDateTime(iso, timeZone)}</time>`;

export const csrfField = (viewer: Viewer): SafeHtml => html`<input type="hidden" name="csrf" value="${viewer.csrf}">`;

/** A button that posts to `action` (a small form of its own). */
export function postButton(
  viewer: Viewer,
  action: string,
  label: string | SafeHtml,
  kind: 'primary' | 'secondary' | 'danger' = 'primary',
  hidden: Record<string, string> = {},
): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">${csrfField(viewer)}${hiddenFields(hidden)}<button type="submit" class="button ${
    kind === 'primary' ? '' : kind
  }">${label}</button></form>`;
}

export const hiddenFields = (fields: Record<string, string>): SafeHtml =>
  html`${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;

/**
 * The field that makes a form's write safe to send twice (a reload of its answer, a double
 * click): a fresh Idempotency-Key each time the form is shown, which the API answers once.
 */
export const IDEMPOTENCY_FIELD = 'idempotencyKey';

/** The Idempotency-Key header of a form that carries one. */
export function idempotencyHeader(form: Record<string, string>): Record<string, string> {
  const key = form[IDEMPOTENCY_FIELD];
  return key && /^[0-9a-f-]{36}$/.test(key) ? { 'idempotency-key': key } : {};
}

export function noticeBlock(notice: Notice | undefined): SafeHtml {
  if (!notice) return html``;
  return notice.kind === 'error'
    ? html`<div class="notice" role="alert"><p>${notice.text}</p></div>`
    : html`<div class="success" role="status"><p>${notice.text}</p></div>`;
}

function organizationSwitcher(viewer: Viewer): SafeHtml {
  if (viewer.organizations.length < 2) return html`<span class="muted">${viewer.organization.name}</span>`;
  return html`<form method="post" action="/app/organization" class="inline">
${csrfField(viewer)}
<label for="organization-switch">Organization</label>
<select id="organization-switch" name="organization">${viewer.organizations.map(
    (o) => html`<option value="${o.id}"${o.id === viewer.organization.id ? html` selected` : ''}>${o.name}</option>`,
  )}</select>
<button type="submit" class="button secondary">Switch</button>
</form>`;
}

function navigation(viewer: Viewer, section: Section): SafeHtml {
  const link = (href: string, label: string, name: Section) =>
    html`<li><a href="${href}"${name === section ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Dashboard">
<ul>
${link('/app/signups', 'Signups', 'signups')}
${canWrite(viewer) ? link('/app/webhooks', 'Webhooks', 'webhooks') : ''}
</ul>
</nav>
<div class="toolbar account">
${organizationSwitcher(viewer)}
<span class="muted">${viewer.email} (${viewer.role})</span>
${postButton(viewer, '/app/signout', 'Sign out', 'secondary')}
</div>`;
}

/** A dashboard page: the navigation, then the content; a member is told the views are read-only. */
export function dashboardPage(viewer: Viewer, section: Section, title: string, main: SafeHtml, notice?: Notice): SafeHtml {
  const readOnly = canWrite(viewer)
    ? ''
    : html`<p class="notice" role="note">Your role in ${viewer.organization.name} is ${viewer.role}: you can look, not change.</p>`;
  return layout({
    title,
    nav: navigation(viewer, section),
    wide: true,
    main: html`${readOnly}
${noticeBlock(notice)}
${main}
<script src="${SCRIPT_PATH}" defer></script>`,
  });
}

/** The step before something that cannot be undone: what will happen, the button that does it, and the way back. */
export function confirmPage(
  viewer: Viewer,
  section: Section,
  options: { title: string; consequence: string; action: string; button: string; back: string },
): SafeHtml {
  return dashboardPage(
    viewer,
    section,
    options.title,
    html`<h1>${options.title}</h1>
<p>${options.consequence}</p>
<div class="toolbar">${postButton(viewer, options.action, options.button, 'danger')} <a href="${options.back}">Cancel</a></div>`,
  );
}

/** A page outside the signed-in frame (signed out, a failed sign-in). */
export function plainPage(title: string, main: SafeHtml): SafeHtml {
  return layout({ title, main: html`<h1>${title}</h1>\n${main}` });
}

/** What a refusal of the REST API means for the person who asked, in words. */
export function problemText(problem: ProblemBody): string {
  switch (problem.status) {
    case 402:
      return `${problem.detail ?? 'Your tier does not allow this.'} An owner can change the tier of the organization.`;
    case 403:
      return 'Your role in this organization does not allow this. Ask an owner or an admin.';
    case 404:
      return 'This no longer exists, or it belongs to another organization.';
    case 409:
      return problem.detail ?? 'This conflicts with the current state. Reload the page and try again.';
    case 412:
      return 'Someone changed this while you were editing. Here it is as it is now: make your change again.';
    case 429:
      return 'Too many requests just now. Wait a minute and try again.';
    default:
      return problem.detail ?? problem.title;
  }
}

export function problemPage(viewer: Viewer | undefined, problem: ProblemBody): SafeHtml {
  const main = html`<h1>${problem.status === 403 ? 'Not allowed' : problem.status === 404 ? 'Not found' : 'This could not be done'}</h1>
<p role="alert">${problemText(problem)}</p>
<p><a href="/app/signups">Back to your signups</a></p>`;
  return viewer ? dashboardPage(viewer, 'signups', 'This could not be done', main) : plainPage('This could not be done', main);
}

/** A column heading; ACTIONS heads a column of buttons (named for screen readers only). */
export const ACTIONS = html`<span class="visually-hidden">Actions</span>`;

/**
 * A table in a region that scrolls sideways on a narrow screen (focusable, so a keyboard can
 * scroll it), named `label`; `body` is its rows, `tbody` the attributes of its body.
 */
export function dataTable(options: {
  label: string;
  caption?: string;
  headers: (string | SafeHtml)[];
  body: SafeHtml;
  tbody?: SafeHtml;
}): SafeHtml {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${options.label}">
<table>
${options.caption ? html`<caption class="visually-hidden">${options.caption}</caption>` : ''}
<thead><tr>${options.headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead>
<tbody${options.tbody ?? ''}>${options.body}</tbody>
</table>
</div>`;
}

/** A link to the next page of a list at `path` (its other query fields in `query`), when there is one. */
export function nextPageLink(
  path: string,
  nextCursor: string | null | undefined,
  text = 'Next page',
  query: Record<string, string> = {},
): SafeHtml | '' {
  return nextCursor ? html`<p><a href="${path}?${new URLSearchParams({ ...query, cursor: nextCursor }).toString()}">${text}</a></p>` : '';
}

/** A select of every time zone the runtime lists, with `selected` chosen. */
export function timeZoneSelect(id: string, name: string, selected: string): SafeHtml {
  return html`<select id="${id}" name="${name}">${listedTimeZones().map(
    (zone) => html`<option${zone === selected ? html` selected` : ''}>${zone}</option>`,
  )}</select>`;
}
