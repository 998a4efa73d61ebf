import type { PublicSignupView } from '#libs/contracts';
import { escapeHtml, html, SafeHtml } from './html.js';
import { CONTENT_SECURITY_POLICY, layout } from './layout.js';
import { choicesOf, emptyForm, FORM_VALUE_MAX_LENGTH, placeErrors, readForm, readSelections } from './page-form.js';
import { formatDate, signupPage } from './views.js';

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

describe('layout', () => {
  it('allows no script and only its own stylesheet by hash', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
    expect(layout(EVIL, html`<p>x</p>`).value).toContain('<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</title>');
  });
});

const signup = (overrides: Partial<PublicSignupView> = {}): PublicSignupView => ({
  id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
  slug: 'party-abc123',
  title: EVIL,
  description: EVIL,
  status: 'published',
  eventDate: '2027-06-01T18:00:00.000Z',
  location: EVIL,
  requiresPhone: true,
  signupCloseDate: null,
  waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
  acceptingRegistrations: true,
  spotsRemaining: 5,
  publicUrl: 'http://x/s/party-abc123',
  livemode: true,
  questions: [],
  slots: [
    {
      id: 's1',
      title: EVIL,
      description: EVIL,
      startTime: '2027-06-01T09:00:00Z',
      endTime: '2027-06-01T11:00:00Z',
      capacity: 3,
      taken: 3,
      remaining: 0,
      livemode: true,
    },
  ],
  items: [{ id: 'i1', name: EVIL, notes: EVIL, quantityNeeded: 2, quantityClaimed: 0, remaining: 2, livemode: true }],
  ...overrides,
});

describe('signupPage', () => {
  it('renders script tags in titles, names, notes and entered values inert', () => {
    const page = signupPage(signup(), emptyForm({ name: `"><script>1</script>`, email: EVIL })).value;
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</h1>');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;1&lt;/script&gt;"');
  });

  it('disables the quantity of a full slot and says it is full', () => {
    const page = signupPage(signup(), emptyForm()).value;
    expect(page).toContain('Full (3 of 3 taken)');
    expect(page).toMatch(/<input id="slot-s1" [^>]*max="0"[^>]* disabled>/);
    expect(page).toContain('5 places left in total.');
  });
});

describe('page forms', () => {
  it('reads the first value of repeated keys and ignores non-strings', () => {
    expect(readForm({ name: ['a', 'b'], n: 1, email: 'e' })).toEqual({ name: 'a', email: 'e' });
    expect(readForm(undefined)).toEqual({});
  });

  it('cuts a value longer than any field, after trimming it, and keeps shorter ones as sent', () => {
    expect(readForm({ name: ` ${'n'.repeat(5000)} `, email: ' a@b.test ' })).toEqual({
      name: 'n'.repeat(FORM_VALUE_MAX_LENGTH),
      email: ' a@b.test ',
    });
  });

  it('turns quantities above 0 into selections and refuses what is not a whole number', () => {
    const choices = choicesOf(signup());
    expect(readSelections(choices, { 'slot-s1': '0', 'item-i1': '2' })).toEqual({
      selections: [{ type: 'item', id: 'i1', quantity: 2 }],
      fields: ['item-i1'],
      errors: {},
    });
    expect(readSelections(choices, { 'slot-s1': '-1', 'item-i1': '1.5' }).errors).toEqual({
      'slot-s1': ['Enter a whole number, 0 or more'],
      'item-i1': ['Enter a whole number, 0 or more'],
    });
  });

  it('places selection errors on the quantity field and unknown paths in the summary', () => {
    const form = placeErrors(
      emptyForm(),
      [
        { path: 'selections.0.quantity', message: 'Too many' },
        { path: 'email', message: 'Invalid email' },
        { path: 'body', message: 'Odd' },
      ],
      ['item-i1'],
      ['name', 'email'],
    );
    expect(form.errors).toEqual({ 'item-i1': ['Too many'], email: ['Invalid email'] });
    expect(form.summary).toEqual(['Odd']);
  });
});

describe('formatDate', () => {
  it('formats in UTC and says so', () => {
    expect(formatDate('2027-06-01T18:00:00.000Z')).toMatch(/^Tuesday,? 1 June 2027 at 18:00 UTC$/);
  });
});
