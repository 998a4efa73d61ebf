import { html, layout } from '#libs/web';
import { PROBLEM_CATALOG, type ProblemCode } from './catalog.js';

/** The human page served at each problem type URI. */
export function renderProblemPage(code: ProblemCode): string {
  const { status, title, description } = PROBLEM_CATALOG[code];
  return layout({
    title,
    main: html`<h1>${title}</h1>
<p>HTTP status <strong>${status}</strong>, code <code>${code}</code>.</p>
<p>${description}</p>
<p>Clients should switch on <code>code</code>; <code>title</code> and <code>detail</code> may change without notice.</p>`,
  }).value;
}
