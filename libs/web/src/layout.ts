import { html, type SafeHtml } from './html.js';
import { STYLESHEET_PATH } from './stylesheet.js';

export interface LayoutOptions {
  /** The document's title (the browser tab, the history). */
  title: string;
  /** The page's own content, inside `<main id="main">`; it begins with the page's `<h1>`. */
  main: SafeHtml;
  /**
   * The navigation of the pages a signed-in person moves between, shown in the site header: a
   * `<nav aria-label="…">` element, its current link marked `aria-current="page"`.
   */
  nav?: SafeHtml;
  /** The dashboard width (about 72rem) instead of the reading width (about 42rem). */
  wide?: boolean;
}

/**
 * Every page a person sees: the shared stylesheet (site.css, linked by its hashed address), a
 * skip link, the site header with the product's name (and `nav`), then the page in `<main>`. No
 * script and no inline style: the pages' CSP allows `style-src 'self'` only.
 */
export function layout({ title, main, nav, wide = false }: LayoutOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="container${wide ? ' wide' : ''}">
<span class="site-name">Signups</span>
${nav}
</div>
</header>
<main id="main" class="container${wide ? ' wide' : ''}">
${main}
</main>
</body>
</html>
`;
}
