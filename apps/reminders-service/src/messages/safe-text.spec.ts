import { cut, displayName, escapeHtml, oneLine, paragraphs, titleOf } from './safe-text.js';

describe('text on one line', () => {
  it('turns line breaks, tabs and other controls into one space each, collapsing runs', () => {
    expect(oneLine('Winter\r\npotluck\tand\u0000fair\u2028now\u0085!')).toBe('Winter potluck and fair now !');
    expect(oneLine('  a   b \n\n c  ')).toBe('a b c');
  });

  it('drops bidi overrides, isolates, zero-width spaces and byte order marks, keeping joiners and marks', () => {
    expect(oneLine('\u202Eelpmaxe\u202C \u2067x\u2069 a\u200Bb\uFEFF')).toBe('elpmaxe x ab');
    expect(oneLine('👩\u200D👩\u200D👧 \u200Fשלום\u200F')).toBe('👩\u200D👩\u200D👧 \u200Fשלום\u200F');
  });

  it('replaces a lone surrogate, which no encoding carries', () => {
    expect(oneLine('a\uD800b')).toBe('a\uFFFDb');
  });
});

describe('cutting', () => {
  it('keeps text within the limit as it is', () => {
    expect(cut('Winter potluck', 14)).toBe('Winter potluck');
  });

  it('cuts by characters as people count them, ending in an ellipsis, never inside an emoji', () => {
    expect(cut('abcdef', 4)).toBe('abc…');
    expect(cut('ab cdef', 4)).toBe('ab…');
    const family = '👩\u200D👩\u200D👧';
    expect(cut(family.repeat(3), 3)).toBe(family.repeat(3));
    expect(cut(family.repeat(4), 3)).toBe(`${family}${family}…`);
    expect(cut('🎉'.repeat(10), 5)).toBe(`${'🎉'.repeat(4)}…`);
  });
});

describe('titles', () => {
  it('are one line of at most 80 characters', () => {
    const title = titleOf(`Potluck\r\nBcc: evil@example.test ${'x'.repeat(10_000)}`);
    expect(title).not.toMatch(/[\r\n]/);
    expect(Array.from(title)).toHaveLength(80);
    expect(title).toMatch(/^Potluck Bcc: evil@example.test x+…$/);
  });

  it('fall back when nothing is left', () => {
    expect(titleOf('\r\n\u202E\u200B')).toBe('your signup');
  });
});

describe('display names', () => {
  it('are one line without quotes, angle brackets, backslashes or @, at most 64 characters', () => {
    expect(displayName('Ana "The Boss" <boss@example.test>\r\nBcc: x@example.test')).toBe(
      'Ana The Boss boss example.test Bcc: x example.test',
    );
    expect(displayName('a\\b')).toBe('a b');
    expect(Array.from(displayName('Ä'.repeat(500)))).toHaveLength(64);
    expect(displayName('\u202E\r\n')).toBe('');
  });
});

describe('paragraphs', () => {
  it('keep line breaks (at most one empty line), drop other controls and invisible characters', () => {
    expect(paragraphs('Bring a dish.\r\n\r\n\r\n\r\nParking\u0007 behind\u202E the hall.\rThanks  ')).toBe(
      'Bring a dish.\n\nParking behind the hall.\nThanks',
    );
  });
});

describe('HTML escaping', () => {
  it('escapes every character that means something in HTML text or attributes', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;');
  });
});
