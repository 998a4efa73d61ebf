import { headerText } from './header-text.js';

describe('headerText', () => {
  it('keeps a plain line as it is', () => {
    expect(headerText("You're signed up: Winter potluck", 200)).toBe("You're signed up: Winter potluck");
  });

  it.each([
    ['CR/LF', 'Potluck\r\nBcc: x@example.com', 'Potluck Bcc: x@example.com'],
    ['a bare LF', 'a\nb', 'a b'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a b c'],
    ['NUL and other controls', 'a\u0000b\u0007c\u007f', 'a b c'],
    ['bidi controls and isolates', 'a\u202Eb\u2066c\u2069', 'a b c'],
    ['zero-width characters and the BOM', 'a\u200Bb\uFEFFc', 'a b c'],
    ['runs of spaces and tabs', '  a \t\t b  ', 'a b'],
  ])('puts %s on one clean line', (_, input, expected) => {
    expect(headerText(input, 200)).toBe(expected);
  });

  it('cuts long text with an ellipsis, counting characters, not UTF-16 units', () => {
    expect(headerText('x'.repeat(10_000), 200)).toBe(`${'x'.repeat(199)}…`);
    const emoji = headerText('🎉'.repeat(300), 10);
    expect([...emoji]).toHaveLength(10);
    expect(emoji.endsWith('…')).toBe(true);
  });

  it('keeps letters of every script and emoji', () => {
    expect(headerText('Élodie · 李雷 · שלום 🎉', 200)).toBe('Élodie · 李雷 · שלום 🎉');
  });
});
