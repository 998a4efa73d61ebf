import { PROBLEM_CATALOG, type ProblemCode } from './catalog.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The human page served at each problem type URI. */
export function renderProblemPage(code: ProblemCode): string {
  const { status, title, description } = PROBLEM_CATALOG[code];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f2;padding:0 .25rem}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>HTTP status <strong>${status}</strong>, code <code>${code}</code>.</p>
<p>${escapeHtml(description)}</p>
<p>Clients should switch on <code>code</code>; <code>title</code> and <code>detail</code> may change without notice.</p>
</body></html>`;
}
