export { escapeHtml, html, type HtmlValue, SafeHtml } from './html.js';
export { layout, type LayoutOptions } from './layout.js';
export { STYLE_SRC, STYLESHEET, STYLESHEET_HASH, STYLESHEET_HEADERS, STYLESHEET_PATH } from './stylesheet.js';
export { parseCookies } from './cookies.js';
