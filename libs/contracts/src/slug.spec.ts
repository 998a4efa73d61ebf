import { newSlug, slugBase } from './slug.js';

describe('slugBase', () => {
  it('lowercases the text and joins its words with hyphens', () => {
    expect(slugBase('Summer Potluck 2026!', 'signup')).toBe('summer-potluck-2026');
  });

  it('folds accented letters to ASCII', () => {
    expect(slugBase('Crème brûlée & Café', 'signup')).toBe('creme-brulee-cafe');
  });

  it('drops leading and trailing separators and collapses runs of them', () => {
    expect(slugBase('  --Bake   sale--  ', 'signup')).toBe('bake-sale');
  });

  it('keeps at most 48 characters without a trailing hyphen', () => {
    const base = slugBase(`${'a'.repeat(47)} bcdef`, 'signup');
    expect(base).toBe('a'.repeat(47));
    expect(slugBase('x'.repeat(200), 'signup')).toHaveLength(48);
  });

  it('falls back to "signup" when nothing ASCII remains', () => {
    expect(slugBase('日本語のイベント', 'signup')).toBe('signup');
    expect(slugBase('!!!', 'signup')).toBe('signup');
  });
});

describe('newSlug', () => {
  it('appends a hyphen and six lowercase base36 characters', () => {
    expect(newSlug('Bake sale', 'signup')).toMatch(/^bake-sale-[0-9a-z]{6}$/);
  });

  it('draws a different suffix each time', () => {
    const slugs = new Set(Array.from({ length: 200 }, () => newSlug('Bake sale', 'signup')));
    expect(slugs.size).toBe(200);
  });
});
