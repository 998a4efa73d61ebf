import { newSlug, slugBase } from './slug.js';

describe('organization slugs', () => {
  it('lowercases the name and joins its words with hyphens', () => {
    expect(slugBase('  Acme Choir & Friends!  ')).toBe('acme-choir-friends');
  });

  it('drops accents instead of the letters that carry them', () => {
    expect(slugBase('Société Générale de Zürich')).toBe('societe-generale-de-zurich');
  });

  it('falls back to "org" when nothing readable is left', () => {
    expect(slugBase('日本語')).toBe('org');
    expect(slugBase('---')).toBe('org');
  });

  it('keeps the readable part short and never ends it with a hyphen', () => {
    const base = slugBase(`${'a'.repeat(39)} and more words`);
    expect(base).toBe('a'.repeat(39));
    expect(slugBase('x'.repeat(100)).length).toBe(40);
  });

  it('appends a six-character lowercase suffix that differs between calls', () => {
    const slugs = Array.from({ length: 200 }, () => newSlug('Acme Choir'));
    for (const slug of slugs) expect(slug).toMatch(/^acme-choir-[a-z0-9]{6}$/);
    expect(new Set(slugs).size).toBe(200);
  });
});
