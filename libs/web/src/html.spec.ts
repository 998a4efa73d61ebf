import { escapeHtml, html, SafeHtml } from './html.js';

const EVIL = '<script>alert("x")</script>';

describe('escapeHtml', () => {
  it('escapes every character that could open a tag, an entity or leave an attribute', () => {
    expect(escapeHtml(`<a href='x' title="y">&\`</a>`)).toBe('&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;&#96;&lt;/a&gt;');
  });

  it('leaves ordinary text alone', () => {
    expect(escapeHtml('Ana Lima, 9:00 – 11:00 ✓')).toBe('Ana Lima, 9:00 – 11:00 ✓');
  });
});

describe('html', () => {
  it('escapes interpolated strings and numbers', () => {
    expect(html`<p title="${'"x"'}">${EVIL} ${42}</p>`.value).toBe(
      '<p title="&quot;x&quot;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 42</p>',
    );
  });

  it('keeps nested html as is, and escapes it only once', () => {
    const inner = html`<b>${'a&b'}</b>`;
    expect(html`<p>${inner}</p>`.value).toBe('<p><b>a&amp;b</b></p>');
  });

  it('renders arrays element by element and nothing for null, undefined and false', () => {
    expect(html`<ul>${['<1>', html`<li>2</li>`]}</ul>${null}${undefined}${false}`.value).toBe('<ul>&lt;1&gt;<li>2</li></ul>');
  });

  it('returns SafeHtml, so a plain string is never mistaken for markup', () => {
    expect(html`x`).toBeInstanceOf(SafeHtml);
    expect(html`${'<b>'}`.value).toBe('&lt;b&gt;');
  });
});
