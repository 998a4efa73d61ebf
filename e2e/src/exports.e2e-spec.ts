import type { ParticipantView, RegistrationResultView, SignupView } from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const MISSING_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';
const ZONE = 'America/New_York';
const SETUP_TIME = 'Tue, Jun 1, 2027, 9:00 – 11:00 AM EDT';
const HOSTILE_NAMES = ['=HYPERLINK("http://x")', '+1', '-1', '@SUM(1)'];
const UNICODE_NAME = 'Zoë 李雷, "the" 🎉';

/** Parses CSV text (RFC 4180: quoted fields with doubled quotes, CRLF between records) into records of cells. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || record.length > 0) throw new Error(`CSV ends inside a record: ${JSON.stringify(record)}`);
  return records;
}

/** An export's answer as raw text. */
async function download(path: string, key?: string) {
  const res = await fetch(`${stackInfo().baseUrl}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('participant exports over REST', () => {
  let tenant: Tenant;
  let signup: SignupView;
  let checkedIn: string;
  let waiting: string;

  beforeAll(async () => {
    tenant = await newTenant('pro');
    const fixture = await newSignup(tenant.key, {
      fields: { timeZone: ZONE, questions: [{ type: 'short_text', label: 'T-shirt, size' }], waitlist: { enabled: true } },
      slots: [{ title: 'Setup', capacity: 1, startTime: '2027-06-01T13:00:00Z', endTime: '2027-06-01T15:00:00Z' }],
      items: [{ name: 'Chairs', quantityNeeded: 10 }],
    });
    signup = fixture.signup;
    const question = signup.questions[0]!.id;
    const setup = { type: 'slot' as const, id: fixture.slots[0]!.id };
    const chairs = { type: 'item' as const, id: fixture.items[0]!.id, quantity: 3 };
    const first = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
      body: person([setup], { name: 'Ada Setup', answers: { [question]: 'M' } }),
    });
    checkedIn = first.body.confirmed[0]!.participantId;
    const second = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
      body: person([setup, chairs], { name: 'Wendy Waiting' }),
    });
    waiting = second.body.confirmed[0]!.participantId;
    for (const name of [...HOSTILE_NAMES, UNICODE_NAME]) {
      expect((await call(`/signups/${signup.id}/participants`, { body: person([], { name }) })).status).toBe(201);
    }
    const check = await call<ParticipantView>(`/signups/${signup.id}/participants/${checkedIn}/check-in`, {
      key: tenant.key,
      body: { hoursServed: 2 },
    });
    expect(check.status).toBe(200);
  });

  describe('as CSV', () => {
    let res: Awaited<ReturnType<typeof download>>;
    let rows: Record<string, string>[];
    let header: string[];

    beforeAll(async () => {
      res = await download(`/signups/${signup.id}/participants/export.csv`, tenant.key);
      const text = res.bytes.toString('utf8');
      const [head, ...records] = parseCsv(text.slice(1));
      header = head!;
      rows = records.map((record) => Object.fromEntries(header.map((column, i) => [column, record[i]!])));
    });

    it('answers a UTF-8 CSV attachment named after the slug, starting with a byte order mark', () => {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${signup.slug}-participants.csv"`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    });

    it("heads its columns, one per question by its label, and gives every participant oldest first with the header's columns", () => {
      expect(header).toEqual([
        'id',
        'name',
        'email',
        'phone',
        'status',
        'registeredAt',
        'registeredAtUtc',
        'selections',
        'waitlist',
        'T-shirt, size',
        'attendance',
        'checkedInAt',
        'checkedInAtUtc',
        'hoursServed',
        'remindedAt',
        'remindedAtUtc',
      ]);
      expect(rows.map((r) => r.name)).toEqual(['Ada Setup', 'Wendy Waiting', ...HOSTILE_NAMES.map((n) => `'${n}`), UNICODE_NAME]);
    });

    it("writes selections, lines, answers and attendance, times in the signup's zone beside UTC", () => {
      const [ada, wendy] = rows;
      expect(ada).toMatchObject({
        id: checkedIn,
        status: 'attended',
        selections: `Setup (${SETUP_TIME})`,
        'T-shirt, size': 'M',
        attendance: 'attended',
        hoursServed: '2',
        remindedAt: '',
      });
      expect(ada!.registeredAt).toMatch(/^\w{3}, \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/);
      expect(new Date(ada!.registeredAtUtc!).toISOString()).toBe(ada!.registeredAtUtc);
      expect(ada!.checkedInAt).toMatch(/ E[SD]T$/);
      expect(new Date(ada!.checkedInAtUtc!).toISOString()).toBe(ada!.checkedInAtUtc);
      expect(wendy).toMatchObject({
        id: waiting,
        status: 'confirmed',
        selections: 'Chairs x3',
        waitlist: 'Setup: waiting #1',
        attendance: '',
      });
    });

    it('neutralises cells that a spreadsheet would take for a formula, and keeps unicode as it is', () => {
      const names = rows.map((r) => r.name);
      for (const name of HOSTILE_NAMES) expect(names).toContain(`'${name}`);
      expect(names).toContain(UNICODE_NAME);
    });
  });

  it('exports NDJSON: one object per line with zoned times, answers by question id with their labels, attendance', async () => {
    const res = await download(`/signups/${signup.id}/participants/export.ndjson`, tenant.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${signup.slug}-participants.ndjson"`);
    const text = res.bytes.toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l.name)).toEqual(['Ada Setup', 'Wendy Waiting', ...HOSTILE_NAMES, UNICODE_NAME]);
    const question = signup.questions[0]!.id;
    expect(lines[0]).toMatchObject({
      id: checkedIn,
      timeZone: ZONE,
      createdAtLocal: expect.stringMatching(/ E[SD]T$/),
      selections: [{ type: 'slot', title: 'Setup', quantity: 1, startTime: '2027-06-01T13:00:00.000Z', time: SETUP_TIME }],
      answers: { [question]: { label: 'T-shirt, size', answer: 'M' } },
      attendance: {
        status: 'attended',
        hoursServed: 2,
        checkedInAt: expect.any(String),
        checkedInAtLocal: expect.stringMatching(/ E[SD]T$/),
      },
      remindedAt: null,
    });
    expect(lines[1]).toMatchObject({
      waitlist: [{ type: 'slot', title: 'Setup', state: 'waiting', position: 1 }],
      answers: {},
      attendance: { status: null },
    });
  });

  it('streams an export of several pages whole and in order (long answers end each page at its byte budget)', async () => {
    const questions = Array.from({ length: 10 }, (_, i) => ({ type: 'long_text', label: `Story ${i}` }));
    const { signup: long } = await newSignup(tenant.key, { fields: { questions } });
    const answers = Object.fromEntries(long.questions.map((q) => [q.id, 'x'.repeat(5000)]));
    const names = Array.from({ length: 12 }, (_, i) => `Storyteller ${i}`);
    for (const name of names) {
      expect((await call(`/signups/${long.id}/participants`, { body: person([], { name, answers }) })).status).toBe(201);
    }
    const ndjson = await download(`/signups/${long.id}/participants/export.ndjson`, tenant.key);
    const lines = ndjson.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { name: string }).name)).toEqual(names);
    const csv = parseCsv((await download(`/signups/${long.id}/participants/export.csv`, tenant.key)).bytes.toString('utf8').slice(1));
    expect(csv.map((record) => record[1])).toEqual(['name', ...names]);
    expect(csv.every((record) => record.length === 9 + 10 + 6)).toBe(true);
  });

  it('describes both routes in the OpenAPI document with their content types and problems', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
    const doc = (await call<{ paths: Record<string, { get?: Operation }> }>('/openapi.json')).body;
    const routes = { csv: 'text/csv', ndjson: 'application/x-ndjson' };
    for (const [format, type] of Object.entries(routes)) {
      const path = Object.keys(doc.paths).find((p) => p.endsWith(`/signups/{id}/participants/export.${format}`))!;
      const responses = doc.paths[path]!.get!.responses;
      expect(Object.keys(responses['200']!.content!)).toEqual([type]);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403', '404', '422', '429', '500']));
    }
  });

  it('answers 404 for an unknown signup, 422 for a malformed id and 403 for another organization', async () => {
    const other = await newTenant('pro');
    for (const format of ['csv', 'ndjson']) {
      expect((await call(`/signups/${MISSING_ID}/participants/export.${format}`, { key: tenant.key })).body).toMatchObject({
        code: 'not_found',
      });
      const malformed = await call(`/signups/not-a-uuid/participants/export.${format}`, { key: tenant.key });
      expect(malformed.status).toBe(422);
      const foreign = await call(`/signups/${signup.id}/participants/export.${format}`, { key: other.key });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toMatchObject({ code: 'forbidden' });
    }
  });

  it('requires participants:read, and a credential', async () => {
    const narrow = await tenant.newKey({ scopes: 'signups:read' });
    const res = await call(`/signups/${signup.id}/participants/export.csv`, { key: narrow.key });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'scope_required', detail: expect.stringContaining('participants:read') });
    expect((await call(`/signups/${signup.id}/participants/export.ndjson`)).status).toBe(401);
  });
});
