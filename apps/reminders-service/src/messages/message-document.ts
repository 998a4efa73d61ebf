import { escapeHtml } from './safe-text.js';

/**
 * An email's content once, rendered twice: as plain text and as simple, inline-styled HTML, so
 * both parts always say the same. Every span of others' words is escaped in HTML and isolated
 * (`<bdi>`), so right-to-left text cannot turn the sentence around it.
 */

/** Our words, or others' (`{ user }`: a title, a name, a label). */
export type Span = string | { user: string };

export type Block =
  | { kind: 'paragraph'; spans: Span[] }
  | { kind: 'heading'; text: string }
  | { kind: 'facts'; rows: { label: string; value: Span[] }[] }
  | { kind: 'list'; items: Span[][] }
  /** A link to follow, with text that says where it leads. */
  | { kind: 'link'; text: string; href: string }
  /** Others' text of several lines (a description). */
  | { kind: 'text'; text: string };

export interface MessageDocument {
  /** The document's title in HTML: the subject. */
  title: string;
  heading: string;
  blocks: Block[];
  /** Small print under a rule. */
  footer: Span[][];
}

export const user = (text: string): Span => ({ user: text });

const spanText = (span: Span): string => (typeof span === 'string' ? span : span.user);
const spanHtml = (span: Span): string => (typeof span === 'string' ? escapeHtml(span) : `<bdi>${escapeHtml(span.user)}</bdi>`);
const spansText = (spans: Span[]): string => spans.map(spanText).join('');
const spansHtml = (spans: Span[]): string => spans.map(spanHtml).join('');

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return spansText(block.spans);
    case 'heading':
      return `${block.text}\n${'-'.repeat(block.text.length)}`;
    case 'facts':
      return block.rows.map((row) => `${row.label}: ${spansText(row.value)}`).join('\n');
    case 'list':
      return block.items.map((item) => `- ${spansText(item)}`).join('\n');
    case 'link':
      return `${block.text}:\n${block.href}`;
    case 'text':
      return block.text;
  }
}

/** The plain-text part. */
export function renderText(doc: MessageDocument): string {
  const footer = doc.footer.map(spansText).join('\n');
  return `${[doc.heading, ...doc.blocks.map(blockText)].join('\n\n')}\n\n--\n${footer}\n`;
}

const STYLE = {
  body: 'margin:0;padding:0;background-color:#f4f4f5;',
  main: 'max-width:600px;margin:0 auto;padding:24px;background-color:#ffffff;color:#18181b;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;',
  h1: 'margin:0 0 16px;font-size:24px;line-height:1.3;',
  h2: 'margin:24px 0 8px;font-size:18px;line-height:1.3;',
  p: 'margin:0 0 16px;',
  list: 'margin:0 0 16px;padding-left:24px;',
  button:
    'display:inline-block;padding:10px 18px;background-color:#1d4ed8;color:#ffffff;font-weight:bold;text-decoration:underline;border-radius:6px;',
  rule: 'border:none;border-top:1px solid #d4d4d8;margin:24px 0 16px;',
  small: 'margin:0 0 8px;font-size:13px;color:#52525b;',
} as const;

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="${STYLE.p}">${spansHtml(block.spans)}</p>`;
    case 'heading':
      return `<h2 style="${STYLE.h2}">${escapeHtml(block.text)}</h2>`;
    case 'facts':
      return block.rows
        .map((row) => `<p style="${STYLE.p}"><strong>${escapeHtml(row.label)}:</strong> ${spansHtml(row.value)}</p>`)
        .join('\n');
    case 'list':
      return `<ul style="${STYLE.list}">\n${block.items.map((item) => `<li>${spansHtml(item)}</li>`).join('\n')}\n</ul>`;
    case 'link':
      return `<p style="${STYLE.p}"><a href="${escapeHtml(block.href)}" style="${STYLE.button}">${escapeHtml(block.text)}</a></p>`;
    case 'text':
      return `<p style="${STYLE.p}" dir="auto">${block.text.split('\n').map(escapeHtml).join('<br>\n')}</p>`;
  }
}

/** The HTML part: one column, inline styles only (mail clients drop style sheets), in English. */
export function renderHtml(doc: MessageDocument): string {
  return `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
</head>
<body style="${STYLE.body}">
<main style="${STYLE.main}">
<h1 style="${STYLE.h1}">${escapeHtml(doc.heading)}</h1>
${doc.blocks.map(blockHtml).join('\n')}
<hr style="${STYLE.rule}">
${doc.footer.map((line) => `<p style="${STYLE.small}">${spansHtml(line)}</p>`).join('\n')}
</main>
</body>
</html>
`;
}
