import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { html } from './html.js';
import { layout } from './layout.js';
import { STYLESHEET, STYLESHEET_HASH, STYLESHEET_PATH } from './stylesheet.js';

const EVIL = '<script>alert("x")</script>';

describe('the stylesheet', () => {
  it('is site.css, at an address named by the first 16 hex digits of its SHA-256', () => {
    const css = readFileSync(new URL('./site.css', import.meta.url), 'utf8');
    expect(STYLESHEET).toBe(css);
    expect(STYLESHEET_HASH).toBe(createHash('sha256').update(css).digest('hex').slice(0, 16));
    expect(STYLESHEET_PATH).toMatch(/^\/assets\/site-[0-9a-f]{16}\.css$/);
    expect(STYLESHEET_PATH).toBe(`/assets/site-${STYLESHEET_HASH}.css`);
  });

  it('imports nothing and loads nothing from elsewhere', () => {
    expect(STYLESHEET).not.toMatch(/@import|url\(/);
  });
});

describe('layout', () => {
  const page = layout({ title: EVIL, main: html`<h1>Hello</h1>` }).value;

  it('links the hashed stylesheet, and has no inline style and no script', () => {
    expect(page).toContain(`<link rel="stylesheet" href="${STYLESHEET_PATH}">`);
    expect(page).not.toMatch(/<style|style=|<script/i);
  });

  it('escapes the title, and sets the language, the viewport and no referrer', () => {
    expect(page).toContain('<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</title>');
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('opens with a skip link to the main content, then the site header with the product name', () => {
    const body = page.slice(page.indexOf('<body>'));
    expect(body).toMatch(/^<body>\n<a class="skip-link" href="#main">Skip to content<\/a>\n<header class="site-header">/);
    expect(body).toContain('<span class="site-name">Signups</span>');
    expect(body).toContain('<main id="main" class="container">\n<h1>Hello</h1>\n</main>');
  });

  it('puts the navigation in the site header, and widens the page for a dashboard', () => {
    const wide = layout({ title: 'Signups', main: html`<h1>x</h1>`, nav: html`<nav aria-label="Dashboard"></nav>`, wide: true }).value;
    expect(wide).toMatch(/<header class="site-header">[\s\S]*<nav aria-label="Dashboard"><\/nav>\n<\/div>\n<\/header>/);
    expect(wide).toContain('<main id="main" class="container wide">');
    expect(page).not.toContain('<nav');
  });
});
