import pg from 'pg';
import type { ItemView, ParticipantView, RegistrationResultView, RegistrationView, SlotView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person, type SignupFixture, type SignupFixtureOptions } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

type Page<T> = { data: T[]; nextCursor: string | null };
const EVIL = '<script>alert(1)</script>';
const ESCAPED_EVIL = '&lt;script&gt;alert(1)&lt;/script&gt;';
const REGISTERED = /^\/r\/(cnf_[0-9A-Za-z]{32})\?registered=1(?:&|$)/;

/** The server-rendered pages over plain HTTP: the HTML itself, its headers and its escaping, with real signups. */
describe('public pages as HTML', () => {
  let tenant: Tenant;
  let origin: string;

  beforeAll(async () => {
    origin = stackInfo().gatewayUrl;
    tenant = await newTenant('pro');
  });

  const get = (path: string) => fetch(`${origin}${path}`);
  /** Posts a form as a browser would, without following the answer's redirect. */
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });

  /** A stored registration answers 303 to its manage page: its token, and the page the browser gets next. */
  const followRegistered = async (res: Response): Promise<{ token: string; location: string; page: Response }> => {
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(REGISTERED);
    return { token: REGISTERED.exec(location)![1]!, location, page: await get(location) };
  };

  /** A published signup with a slot "Setup" and an item "Salad" (or what `options` says). */
  const potluck = (options: SignupFixtureOptions = {}): Promise<SignupFixture> =>
    newSignup(tenant.key, {
      fields: { title: 'Potluck', description: 'Bring food', location: 'Park', ...options.fields },
      slots: options.slots ?? [{ title: 'Setup', capacity: 3 }],
      items: options.items ?? [{ name: 'Salad', quantityNeeded: 4 }],
      ...(options.publish !== undefined && { publish: options.publish }),
    });

  /** Registers over REST (anonymously) and answers the confirmation token. */
  const register = async (signupId: string, body: object): Promise<string> => {
    const res = await call<RegistrationResultView>(`/signups/${signupId}/participants`, { body });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.confirmationToken!;
  };

  const close = async (signupId: string) => {
    expect((await call(`/signups/${signupId}/close`, { key: tenant.key, method: 'POST' })).status).toBe(200);
  };

  const registrationOf = (token: string) => call<RegistrationView>(`/registrations/${token}`);
  const participantsOf = async (signupId: string) =>
    (await call<Page<ParticipantView>>(`/signups/${signupId}/participants`, { key: tenant.key })).body.data;
  const slotOf = async (signupId: string, id: string) =>
    (await call<{ data: SlotView[] }>(`/signups/${signupId}/slots`, { key: tenant.key })).body.data.find((s) => s.id === id)!;
  const itemOf = async (signupId: string, id: string) =>
    (await call<{ data: ItemView[] }>(`/signups/${signupId}/items`, { key: tenant.key })).body.data.find((i) => i.id === id)!;

  describe('GET /s/{slug}', () => {
    it('renders the signup, what remains and a labelled form as HTML with a strict policy and no script', async () => {
      const { signup, slots, items } = await potluck();
      await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const [slot, item] = [slots[0]!, items[0]!];
      const res = await get(`/s/${signup.slug}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'self'; .*form-action 'self'/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const page = await res.text();
      expect(page).toContain('<h1>Potluck</h1>');
      expect(page).toContain('2 of 3 places left');
      expect(page).toContain('4 of 4 still needed');
      expect(page).toContain('<label for="name">Name</label>');
      expect(page).toContain('<label for="email">Email</label>');
      expect(page).not.toContain('<label for="phone">');
      expect(page).toContain(`<label for="slot-${slot.id}">Setup</label>`);
      expect(page).toMatch(
        new RegExp(`<input id="slot-${slot.id}" name="slot-${slot.id}" type="number" [^>]*min="0" max="2" step="1" value="0"`),
      );
      expect(page).toMatch(
        new RegExp(`<input id="item-${item.id}" name="item-${item.id}" type="number" [^>]*min="0" max="4" step="1" value="0"`),
      );
      expect(page).toContain(`<form method="post" action="/s/${signup.slug}">`);
      expect(page).toContain('<button type="submit">Sign up</button>');
      expect(page).not.toMatch(/<script/i);
    });

    it('renders script tags in real titles, descriptions, locations, slot titles and item names inert', async () => {
      const { signup } = await potluck({
        fields: { title: EVIL, description: `"><img src=x onerror=alert(1)>`, location: EVIL },
        slots: [{ title: `${EVIL}"`, capacity: 2 }],
        items: [{ name: EVIL, notes: EVIL, quantityNeeded: 1 }],
      });
      const page = await (await get(`/s/${signup.slug}`)).text();
      expect(page).not.toMatch(/<script/i);
      expect(page).not.toContain('<img');
      expect(page).toContain(`<title>${ESCAPED_EVIL}</title>`);
      expect(page).toContain(`<h1>${ESCAPED_EVIL}</h1>`);
      expect(page).toContain(`${ESCAPED_EVIL}&quot;</label>`);
      expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    });

    it('asks for a phone only when the signup requires one', async () => {
      const { signup } = await potluck({ fields: { requiresPhone: true } });
      const page = await (await get(`/s/${signup.slug}`)).text();
      expect(page).toContain('<label for="phone">Phone</label>');
      expect(page).toMatch(/<input id="phone" name="phone" type="tel" [^>]*required/);
    });

    it('says a closed signup is closed, lists what remains and shows no form', async () => {
      const { signup, slots } = await potluck();
      await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      await close(signup.id);
      const res = await get(`/s/${signup.slug}`);
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('This signup is closed.');
      expect(page).toContain('Setup: 2 of 3 places left');
      expect(page).toContain('Salad: 4 of 4 still needed');
      expect(page).not.toContain('<form');
    });

    it("answers a draft's page with a 404 page in HTML, not JSON", async () => {
      const { signup } = await potluck({ publish: false });
      const res = await get(`/s/${signup.slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await res.text();
      expect(page).toContain('<h1>Not found</h1>');
      expect(page).not.toContain('Potluck');
    });

    it('answers a malformed slug with a 404 page, even a real slug in upper case', async () => {
      const { signup } = await potluck();
      for (const slug of ['Upper-Case', 'a'.repeat(61), 'under_score', signup.slug.toUpperCase()]) {
        const res = await get(`/s/${slug}`);
        expect({ slug, status: res.status, type: res.headers.get('content-type') }).toEqual({
          slug,
          status: 404,
          type: 'text/html; charset=utf-8',
        });
        expect(await res.text()).toContain('<h1>Not found</h1>');
      }
    });
  });

  describe('POST /s/{slug}', () => {
    it('stores the trimmed name and each quantity above 0, then sends the browser to the manage page, which confirms them once with the link to keep', async () => {
      const { signup, slots, items } = await potluck();
      const [slot, item] = [slots[0]!, items[0]!];
      const { email } = person();
      const {
        token,
        location,
        page: res,
      } = await followRegistered(
        await post(`/s/${signup.slug}`, { name: ' Ana ', email, [`slot-${slot.id}`]: '1', [`item-${item.id}`]: '2' }),
      );
      expect(location).toBe(`/r/${token}?registered=1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const page = await res.text();
      expect(page).toContain('You&#39;re signed up — keep this link');
      expect(page).toMatch(/<h3>Confirmed<\/h3>\s*<ul><li>Setup: 1 place<\/li><li>Salad: 2<\/li><\/ul>/);
      expect(page).toContain(`<a href="${origin}/r/${token}">${origin}/r/${token}</a>`);
      const stored = await registrationOf(token);
      expect(stored.status).toBe(200);
      expect(stored.body.participant).toMatchObject({
        name: 'Ana',
        email,
        phone: null,
        selections: [
          { type: 'slot', id: slot.id, quantity: 1 },
          { type: 'item', id: item.id, quantity: 2 },
        ],
      });
      // The manage page itself, as bookmarked: no confirmation, and getting it again stores nothing.
      const again = await (await get(`/r/${token}`)).text();
      expect(again).not.toContain('keep this link');
      await get(location);
      expect(await participantsOf(signup.id)).toHaveLength(1);
    });

    it('registers with no selections when every quantity is 0 or empty', async () => {
      const { signup, slots, items } = await potluck();
      const { token, page } = await followRegistered(
        await post(`/s/${signup.slug}`, {
          name: 'Ana',
          email: person().email,
          [`slot-${slots[0]!.id}`]: '0',
          [`item-${items[0]!.id}`]: '',
        }),
      );
      expect(await page.text()).toContain('You are signed up without a slot or item.');
      expect((await registrationOf(token)).body.participant.selections).toEqual([]);
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 0, remaining: 3 });
    });

    it('lists what failed beside what was confirmed, on the manage page it sends the browser to', async () => {
      const { signup, slots, items } = await potluck({ slots: [{ title: 'Setup', capacity: 2 }] });
      const { location, page: res } = await followRegistered(
        await post(`/s/${signup.slug}`, {
          name: 'Ana',
          email: person().email,
          [`slot-${slots[0]!.id}`]: '3',
          [`item-${items[0]!.id}`]: '1',
        }),
      );
      expect(location).toMatch(new RegExp(`\\?registered=1&failed=slot-${slots[0]!.id}%3A3$`));
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('but not for everything');
      expect(page).toContain('<li>Setup: 3 places asked for, only 2 left, so none was reserved.</li>');
      expect(page).toContain('<li>Salad: 1</li>');
      expect(await itemOf(signup.id, items[0]!.id)).toMatchObject({ quantityClaimed: 1 });
    });

    it('re-renders the form with 422, a message beside each bad field and the entered values kept, escaped', async () => {
      const { signup, slots } = await potluck();
      const slotField = `slot-${slots[0]!.id}`;
      const res = await post(`/s/${signup.slug}`, { name: `"><script>x</script>`, email: 'not-an-email', [slotField]: 'two' });
      expect(res.status).toBe(422);
      const page = await res.text();
      expect(page).not.toMatch(/<script/i);
      expect(page).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
      expect(page).toContain('<p class="error" id="email-error">Invalid email</p>');
      expect(page).toMatch(/<input id="email" [^>]*value="not-an-email"[^>]* aria-describedby="email-error" aria-invalid="true">/);
      expect(page).toContain(`<p class="error" id="${slotField}-error">Enter a whole number, 0 or more</p>`);
      expect(page).toContain('<a href="#email">Email: Invalid email</a>');
      expect(await participantsOf(signup.id)).toEqual([]);
    });

    it("puts a selection's validation message beside its own quantity field, keeping the phone", async () => {
      const { signup, slots, items } = await potluck({ fields: { requiresPhone: true } });
      const [slotField, itemField] = [`slot-${slots[0]!.id}`, `item-${items[0]!.id}`];
      const res = await post(`/s/${signup.slug}`, {
        name: 'Ana',
        email: person().email,
        phone: '+14155550123',
        [slotField]: '1',
        [itemField]: '5000',
      });
      expect(res.status).toBe(422);
      const page = await res.text();
      expect(page).toContain(`<p class="error" id="${itemField}-error">Must be at most 1000</p>`);
      expect(page).not.toContain(`id="${slotField}-error"`);
      expect(page).toContain('value="+14155550123"');
      expect(await participantsOf(signup.id)).toEqual([]);
    });

    it('requires a phone when the signup does, and explains a malformed one', async () => {
      const { signup } = await potluck({ fields: { requiresPhone: true } });
      const missing = await post(`/s/${signup.slug}`, { name: 'Ana', email: person().email });
      expect(missing.status).toBe(422);
      expect(await missing.text()).toContain('<p class="error" id="phone-error">Required</p>');
      const bad = await post(`/s/${signup.slug}`, { name: 'Ana', email: person().email, phone: '12345' });
      expect(bad.status).toBe(422);
      expect(await bad.text()).toContain(
        '<p class="error" id="phone-error">Invalid phone number: use the international format without an extension, e.g. +14155550123</p>',
      );
      expect(await participantsOf(signup.id)).toEqual([]);
    });

    it('shows with 400 why a closed signup takes no registration, before looking at the form', async () => {
      const { signup } = await potluck();
      await close(signup.id);
      for (const form of [
        { name: 'Ana', email: person().email },
        { name: '', email: 'not-an-email' },
      ]) {
        const res = await post(`/s/${signup.slug}`, form);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        const page = await res.text();
        expect(page).toContain('You are not signed up: this signup takes no registrations now.');
        expect(page).toContain('This signup is closed.');
        expect(page).not.toContain('Invalid email');
        expect(page).not.toContain('<form');
      }
      expect(await participantsOf(signup.id)).toEqual([]);
    });

    it('shows with 400 that a full signup takes no registration, even for an incomplete form', async () => {
      const { signup } = await potluck({ fields: { maxParticipants: 1 } });
      await register(signup.id, person());
      const res = await post(`/s/${signup.slug}`, { name: '' });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('This signup is full: every place is taken.');
      expect(await participantsOf(signup.id)).toHaveLength(1);
    });

    it('keeps the form with 409 and says nothing was reserved when every selection failed', async () => {
      const { signup, slots } = await potluck({ slots: [{ title: 'Setup', capacity: 1 }] });
      await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const res = await post(`/s/${signup.slug}`, { name: 'Ana', email: person().email, [`slot-${slots[0]!.id}`]: '1' });
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain('Nothing could be reserved');
      expect(page).toContain('<li>Slot “Setup” is full.</li>');
      expect(page).toContain('value="Ana"');
      expect(await participantsOf(signup.id)).toHaveLength(1);
    });
  });

  describe('/r/{token}', () => {
    it('shows the registration, its real name escaped, with an edit form, a separate cancel form and no caching', async () => {
      const { signup, slots } = await potluck();
      const slotId = slots[0]!.id;
      const token = await register(signup.id, person([{ type: 'slot', id: slotId }], { name: EVIL, phone: '+14155550123' }));
      const res = await get(`/r/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).not.toMatch(/<script/i);
      expect(page).toContain(`<dd>${ESCAPED_EVIL}</dd>`);
      expect(page).toContain('<dd>+14155550123</dd>');
      expect(page).toContain('<li>Setup: 1 place</li>');
      expect(page).toContain(`<form method="post" action="/r/${token}">`);
      expect(page).toMatch(new RegExp(`<input id="slot-${slotId}" [^>]*max="3" step="1" value="1"`));
      expect(page).toContain('<button type="submit">Save changes</button>');
      expect(page).toContain(`<form method="post" action="/r/${token}/cancel">`);
      expect(page).toContain('Cancel registration</button>');
    });

    it('answers a malformed token with a 404 page on view and cancel, even a real token altered', async () => {
      const { signup } = await potluck();
      const token = await register(signup.id, person());
      for (const malformed of ['cnf_short', `${token.slice(0, -1)}!`, `xyz_${token.slice(4)}`, `CNF_${token.slice(4)}`, `${token}a`]) {
        const view = await get(`/r/${encodeURIComponent(malformed)}`);
        const cancel = await post(`/r/${encodeURIComponent(malformed)}/cancel`, {});
        expect({ malformed, view: view.status, cancel: cancel.status }).toEqual({ malformed, view: 404, cancel: 404 });
        expect(await view.text()).toContain('<h1>Not found</h1>');
      }
      expect((await registrationOf(token)).status).toBe(200);
    });

    it('keeps an answer given before its question changed when the person edits something else', async () => {
      const { signup, slots } = await potluck({
        fields: { questions: [{ type: 'single_choice', label: 'Size', required: false, options: ['S', 'L'] }] },
      });
      const size = signup.questions[0]!;
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }], { answers: { [size.id]: 'L' } }));
      const changed = { questions: [{ ...size, options: ['S', 'M'] }] };
      expect((await call(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: changed })).status).toBe(200);
      const res = await post(`/r/${token}`, { name: 'Ana Lima', [`slot-${slots[0]!.id}`]: '1' });
      expect(res.status).toBe(303);
      expect((await registrationOf(token)).body.participant).toMatchObject({ name: 'Ana Lima', answers: { [size.id]: 'L' } });
    });

    it('saves a new name, clears an emptied phone and gives back an item set to 0, then sends the browser back to the page', async () => {
      const { signup, slots, items } = await potluck();
      const [slot, item] = [slots[0]!, items[0]!];
      const token = await register(
        signup.id,
        person(
          [
            { type: 'slot', id: slot.id },
            { type: 'item', id: item.id },
          ],
          { phone: '+14155550123' },
        ),
      );
      const res = await post(`/r/${token}`, { name: 'Ana Lima', phone: '', [`slot-${slot.id}`]: '2', [`item-${item.id}`]: '0' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/r/${token}?saved=1`);
      const next = await get(res.headers.get('location')!);
      expect(next.status).toBe(200);
      const page = await next.text();
      expect(page).toContain('Your changes are saved.');
      expect(page).toContain('<li>Setup: 2 places</li>');
      expect(page).not.toContain('<li>Salad');
      expect((await registrationOf(token)).body.participant).toMatchObject({
        name: 'Ana Lima',
        phone: null,
        selections: [{ type: 'slot', id: slot.id, quantity: 2 }],
      });
      expect(await itemOf(signup.id, item.id)).toMatchObject({ quantityClaimed: 0, remaining: 4 });
    });

    it('re-renders the edit form with the reason when a change does not fit, keeping the entered quantity', async () => {
      const { signup, slots } = await potluck();
      const slotId = slots[0]!.id;
      const token = await register(signup.id, person([{ type: 'slot', id: slotId }]));
      const res = await post(`/r/${token}`, { name: 'Ana', [`slot-${slotId}`]: '4' });
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain('Slot “Setup” has 2 places left; 3 asked for. Nothing was changed.');
      expect(page).toMatch(new RegExp(`<input id="slot-${slotId}" [^>]*value="4"`));
      expect((await registrationOf(token)).body.participant.selections).toEqual([{ type: 'slot', id: slotId, quantity: 1 }]);
    });

    it('offers no changes once the signup is closed, and says whom to ask', async () => {
      const { signup } = await potluck();
      const token = await register(signup.id, person());
      await close(signup.id);
      const res = await get(`/r/${token}`);
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain(
        'This signup is closed, so your registration can no longer be changed or canceled here. Contact the organizer if you need to.',
      );
      expect(page).not.toContain('<form');
    });

    it('shows with 400 that a closed signup takes no change, before looking at the form', async () => {
      const { signup, slots } = await potluck();
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      await close(signup.id);
      const res = await post(`/r/${token}`, { name: '', [`slot-${slots[0]!.id}`]: 'two' });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toContain('Your changes were not saved');
      expect(page).toContain('This signup is closed, so your registration can no longer be changed or canceled here.');
      expect(page).not.toContain('Please check the form');
      expect((await registrationOf(token)).body.participant.selections).toEqual([{ type: 'slot', id: slots[0]!.id, quantity: 1 }]);
    });

    it('shows with 400 why a cancellation was refused, and keeps the registration', async () => {
      const { signup } = await potluck();
      const token = await register(signup.id, person());
      await close(signup.id);
      const res = await post(`/r/${token}/cancel`, {});
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(
        'This signup is closed: its registrations can no longer be changed or canceled by their confirmation link. Contact the organizer.',
      );
      expect((await registrationOf(token)).status).toBe(200);
    });

    it('cancels over a plain form POST with 200, the page headers and an HTML confirmation', async () => {
      const { signup, slots } = await potluck();
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const res = await post(`/r/${token}/cancel`, {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).toContain('Your registration is canceled');
      expect(page).toContain(`<a href="/s/${signup.slug}">Back to the signup</a>`);
      expect(await participantsOf(signup.id)).toEqual([]);
    });
  });

  describe('/r/{token}/waitlist/{entryId}', () => {
    const OFFER = { enabled: true, mode: 'offer', offerMinutes: 60 };

    /** A signup whose one place in "Setup" is taken, and a registration waiting in its line: its token and entry. */
    const waiting = async (waitlist: object = OFFER) => {
      const { signup, slots } = await potluck({ fields: { waitlist }, slots: [{ title: 'Setup', capacity: 1 }] });
      const holder = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const entryId = (await registrationOf(token)).body.participant.waitlist[0]!.id;
      return { signup, holder, token, entryId };
    };

    it('answers an offer accepted after it expired with 409 and why, on the page, with the page headers', async () => {
      const { holder, token, entryId } = await waiting();
      expect((await call(`/registrations/${holder}`, { method: 'DELETE' })).status).toBe(200);
      expect((await registrationOf(token)).body.participant.waitlist[0]).toMatchObject({ id: entryId, state: 'offered' });
      const db = new pg.Client({ connectionString: stackInfo().databaseUrl });
      await db.connect();
      try {
        await db.query(`UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 second' WHERE id = $1`, [entryId]);
      } finally {
        await db.end();
      }
      const res = await post(`/r/${token}/waitlist/${entryId}/accept`, {});
      expect(res.status).toBe(409);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      const page = await res.text();
      expect(page).toContain('<div class="notice" role="alert">\n<p>The place was not accepted. This offer expired at ');
      expect(page).toContain('the place passed to the next in line.');
      expect((await registrationOf(token)).body.participant.selections).toEqual([]);
    });

    it('answers an accept of an entry still in line with 409, and leaves the line with 303 to the page', async () => {
      const { token, entryId } = await waiting();
      const refused = await post(`/r/${token}/waitlist/${entryId}/accept`, {});
      expect(refused.status).toBe(409);
      const page = await refused.text();
      expect(page).toContain('The place was not accepted. No place is offered for this entry yet; it is still in line.');
      expect(page).toContain('You are number 1 on the waitlist for Setup.');
      const left = await post(`/r/${token}/waitlist/${entryId.toUpperCase()}/leave`, {});
      expect(left.status).toBe(303);
      expect(left.headers.get('location')).toBe(`/r/${token}?waitlist=leave`);
      expect((await registrationOf(token)).body.participant).toMatchObject({ status: 'cancelled', waitlist: [] });
      expect((await post(`/r/${token}/waitlist/${entryId}/leave`, {})).status).toBe(303);
    });

    it('answers a malformed or unknown entry, or a malformed token, with a 404 page and changes nothing', async () => {
      const { token, entryId } = await waiting();
      for (const path of [
        `/r/${token}/waitlist/not-a-uuid/leave`,
        `/r/${token}/waitlist/00000000-0000-4000-8000-000000000000/leave`,
        `/r/${token}/waitlist/00000000-0000-4000-8000-000000000000/accept`,
        `/r/cnf_short/waitlist/${entryId}/leave`,
        `/r/${token}/waitlist/${entryId}/nowhere`,
      ]) {
        const res = await post(path, {});
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(await res.text()).toContain('<h1>Not found</h1>');
      }
      expect((await registrationOf(token)).body.participant.waitlist).toMatchObject([{ id: entryId, state: 'waiting' }]);
    });

    it('saves the name of a registration waiting for a place in the signup, whose page asks for no quantities', async () => {
      const { signup, slots } = await potluck({ fields: { maxParticipants: 1, waitlist: { enabled: true } } });
      await register(signup.id, person());
      const token = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      const page = await (await get(`/r/${token}`)).text();
      expect(page).toContain('You are number 1 on the waitlist for this signup.');
      expect(page).toContain('You can choose slots and items once you have a place in the signup.');
      expect(page).not.toContain(`id="slot-${slots[0]!.id}"`);
      const res = await post(`/r/${token}`, { name: 'Ana Lima' });
      expect(res.status).toBe(303);
      expect((await registrationOf(token)).body.participant).toMatchObject({ name: 'Ana Lima', status: 'waitlisted' });
    });

    it('shows a canceled registration as canceled, and refuses to change it with 409', async () => {
      const { signup } = await potluck();
      const token = await register(signup.id, person());
      expect((await post(`/r/${token}/cancel`, {})).status).toBe(200);
      const view = await get(`/r/${token}`);
      expect(view.status).toBe(200);
      expect(await view.text()).toContain('<h1>Your registration is canceled</h1>');
      const res = await post(`/r/${token}`, { name: 'Ana Lima' });
      expect(res.status).toBe(409);
      const page = await res.text();
      expect(page).toContain('Your changes were not saved: this registration is canceled.');
      expect(page).not.toContain('<form');
      expect((await post(`/r/${token}/cancel`, {})).status).toBe(200);
    });
  });

  describe('never JSON', () => {
    it('answers a multipart or malformed body, and an unknown route, on the pages with the HTML error page and the same status', async () => {
      const { signup } = await potluck();
      const token = await register(signup.id, person());
      const cases: [string, RequestInit, number][] = [
        [
          `/s/${signup.slug}`,
          {
            method: 'POST',
            headers: { 'content-type': 'multipart/form-data; boundary=x' },
            body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--x--\r\n',
          },
          422,
        ],
        [`/r/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' }, 422],
        [
          `/r/${token}/cancel`,
          { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '__proto__=x' },
          400,
        ],
        [`/r/${token}/cancel`, { method: 'GET' }, 404],
        [`/s/${signup.slug}/nowhere`, { method: 'GET' }, 404],
      ];
      for (const [path, init, status] of cases) {
        const res = await fetch(`${origin}${path}`, { ...init, redirect: 'manual' });
        expect({ path, method: init.method, status: res.status, type: res.headers.get('content-type') }).toEqual({
          path,
          method: init.method,
          status,
          type: 'text/html; charset=utf-8',
        });
        expect(await res.text()).toMatch(/^<!doctype html>/);
      }
      expect(await participantsOf(signup.id)).toHaveLength(1);
      expect((await registrationOf(token)).status).toBe(200);
    });
  });
});
