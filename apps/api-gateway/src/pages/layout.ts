import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html.js';

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{line-height:1.2}
.meta{color:#444;margin:0}
.description{white-space:pre-line}
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:1rem 0;padding:.5rem 1rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.field{margin:.75rem 0}
.field label{display:block;font-weight:600}
.field input{font:inherit;padding:.35rem .5rem;border:1px solid #888;border-radius:.3rem;width:100%;max-width:24rem;box-sizing:border-box}
.field input[type=number]{width:6rem}
.field textarea{font:inherit;padding:.35rem .5rem;border:1px solid #888;border-radius:.3rem;width:100%;box-sizing:border-box}
.option label{display:inline;font-weight:400;margin-left:.4rem}
.required{font-weight:400;color:#555}
.hint,.remaining{display:block;color:#555;font-size:.95em}
.error{color:#a4000f;font-weight:600;margin:.25rem 0}
input[aria-invalid=true],textarea[aria-invalid=true]{border-color:#a4000f;border-width:2px}
.notice{border-left:.3rem solid #a4000f;background:#fff4f4;padding:.5rem 1rem;margin:1rem 0}
.success{border-left:.3rem solid #1a7f37;background:#f1fbf3;padding:.5rem 1rem;margin:1rem 0}
.keep{border:2px solid #1b1b1b;padding:.75rem 1rem;margin:1rem 0}
.keep a{word-break:break-all}
.calendar li a{margin-left:.5rem}
button{font:inherit;padding:.45rem 1.2rem;border-radius:.3rem;border:1px solid #1b1b1b;background:#1b1b1b;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#a4000f;border-color:#a4000f}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
.email-text{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:1rem;border-radius:.3rem}
pre{overflow-x:auto;background:#f6f6f6;padding:.75rem 1rem;border-radius:.3rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The stylesheet is a constant of this file, never user input (a SafeHtml made by hand, like the Integrating guide's). */
const STYLE_ELEMENT = new SafeHtml(`<style>${STYLE}</style>`);

/**
 * Nothing runs, nothing loads from elsewhere: no scripts at all, only the page's own inline
 * stylesheet (by hash), forms that post back to this origin, and no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers of every page: the CSP, and no referrer (the /r URLs hold the confirmation token). */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** A whole page around its main content. */
export function layout(title: string, main: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${STYLE_ELEMENT}
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}
