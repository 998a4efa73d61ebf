import type { SignupDraft } from '#libs/contracts';
import { draftFromDescription } from './index.js';

/** A Sunday; every relative date below is resolved from it. */
const REFERENCE = new Date('2026-11-22T10:00:00Z');

/** One description and the whole draft an organizer would want from it. */
interface Row {
  name: string;
  timeZone?: string;
  text: string;
  expected: SignupDraft;
}

const ROWS: Row[] = [
  {
    name: 'potluck with a counted list',
    text: 'Potluck next Saturday at 5pm at Riverside Park, we need 2 salads, 3 desserts and drinks',
    expected: {
      title: 'Potluck',
      description: 'Potluck next Saturday at 5pm at Riverside Park, we need 2 salads, 3 desserts and drinks',
      eventDate: '2026-11-28T17:00:00.000Z',
      location: 'Riverside Park',
      items: [{ name: 'Salads', quantityNeeded: 2 }, { name: 'Desserts', quantityNeeded: 3 }, { name: 'Drinks' }],
      slots: [],
    },
  },
  {
    name: 'bake sale with "bring:" and x-counts',
    text: "Let's have a bake sale on Friday Dec 4 from 9am-2pm at Lincoln Elementary. Please bring: cookies x4, brownies, a dozen cupcakes, 2 pies (no nuts)",
    expected: {
      title: 'Bake sale',
      description:
        "Let's have a bake sale on Friday Dec 4 from 9am-2pm at Lincoln Elementary. Please bring: cookies x4, brownies, a dozen cupcakes, 2 pies (no nuts)",
      eventDate: '2026-12-04T09:00:00.000Z',
      location: 'Lincoln Elementary',
      items: [
        { name: 'Cookies', quantityNeeded: 4 },
        { name: 'Brownies' },
        { name: 'Cupcakes', quantityNeeded: 12 },
        { name: 'Pies', quantityNeeded: 2, notes: 'no nuts' },
      ],
      slots: [],
    },
  },
  {
    name: 'food bank shifts without am/pm',
    text: 'Volunteer shifts for the food bank on Saturday: shifts 9-11 and 11-1, 4 people each. Location: 450 Oak Street',
    expected: {
      title: 'Volunteer shifts for the food bank',
      description: 'Volunteer shifts for the food bank on Saturday: shifts 9-11 and 11-1, 4 people each. Location: 450 Oak Street',
      eventDate: '2026-11-28T09:00:00.000Z',
      location: '450 Oak Street',
      items: [],
      slots: [
        { title: '09:00–11:00', startTime: '2026-11-28T09:00:00.000Z', endTime: '2026-11-28T11:00:00.000Z', capacity: 4 },
        { title: '11:00–13:00', startTime: '2026-11-28T11:00:00.000Z', endTime: '2026-11-28T13:00:00.000Z', capacity: 4 },
      ],
    },
  },
  {
    name: 'team BBQ in New York time',
    timeZone: 'America/New_York',
    text: "We're organizing a Team BBQ tomorrow 10am in the park. Need 10 chairs for the pavilion and a grill.",
    expected: {
      title: 'Team BBQ',
      description: "We're organizing a Team BBQ tomorrow 10am in the park. Need 10 chairs for the pavilion and a grill.",
      eventDate: '2026-11-23T15:00:00.000Z',
      location: 'The park',
      items: [
        { name: 'Chairs', quantityNeeded: 10, notes: 'for the pavilion' },
        { name: 'Grill', quantityNeeded: 1 },
      ],
      slots: [],
    },
  },
  {
    name: 'cleanup with named shifts in Berlin time',
    timeZone: 'Europe/Berlin',
    text: 'Sign up for the neighbourhood cleanup on the 14th! Morning shift 9-12 and afternoon shift 1-4 (3 volunteers per shift). Meet @ Mauerpark',
    expected: {
      title: 'Neighbourhood cleanup',
      description:
        'Sign up for the neighbourhood cleanup on the 14th! Morning shift 9-12 and afternoon shift 1-4 (3 volunteers per shift). Meet @ Mauerpark',
      eventDate: '2026-12-14T08:00:00.000Z',
      location: 'Mauerpark',
      items: [],
      slots: [
        { title: 'Morning shift', startTime: '2026-12-14T08:00:00.000Z', endTime: '2026-12-14T11:00:00.000Z', capacity: 3 },
        { title: 'Afternoon shift', startTime: '2026-12-14T12:00:00.000Z', endTime: '2026-12-14T15:00:00.000Z', capacity: 3 },
      ],
    },
  },
  {
    name: 'school concert with a bullet list under a header',
    text: 'Christmas concert Dec 12 at 6:30 pm\nItems needed:\n- 2 poinsettias\n- 12 folding chairs\n- 1 coffee urn\n- napkins',
    expected: {
      title: 'Christmas concert',
      description: 'Christmas concert Dec 12 at 6:30 pm\nItems needed:\n- 2 poinsettias\n- 12 folding chairs\n- 1 coffee urn\n- napkins',
      eventDate: '2026-12-12T18:30:00.000Z',
      items: [
        { name: 'Poinsettias', quantityNeeded: 2 },
        { name: 'Folding chairs', quantityNeeded: 12 },
        { name: 'Coffee urn', quantityNeeded: 1 },
        { name: 'Napkins' },
      ],
      slots: [],
    },
  },
  {
    name: 'church picnic, bullets only, no date',
    text: 'Church picnic\n- 3 watermelons\n- two dozen hot dogs\n- mac and cheese\n- 10 lbs of ice',
    expected: {
      title: 'Church picnic',
      description: 'Church picnic\n- 3 watermelons\n- two dozen hot dogs\n- mac and cheese\n- 10 lbs of ice',
      items: [
        { name: 'Watermelons', quantityNeeded: 3 },
        { name: 'Hot dogs', quantityNeeded: 24 },
        { name: 'Mac and cheese' },
        { name: 'Ice', notes: '10 lbs' },
      ],
      slots: [],
    },
  },
  {
    name: 'greeting before the event sentence',
    text: 'Hi everyone! Our annual chili cook-off is next Sunday at noon in the church hall. We need 5 chili entries, cornbread and 2 coolers.',
    expected: {
      title: 'Annual chili cook-off',
      description:
        'Hi everyone! Our annual chili cook-off is next Sunday at noon in the church hall. We need 5 chili entries, cornbread and 2 coolers.',
      eventDate: '2026-11-29T12:00:00.000Z',
      location: 'The church hall',
      items: [{ name: 'Chili entries', quantityNeeded: 5 }, { name: 'Cornbread' }, { name: 'Coolers', quantityNeeded: 2 }],
      slots: [],
    },
  },
  { name: 'terse title only', text: 'Soccer team snack schedule', expected: { title: 'Soccer team snack schedule', items: [], slots: [] } },
  {
    name: 'car wash with am/pm shifts and an address',
    text: 'Fundraiser car wash Saturday 9am-12pm and 1pm-4pm (3 volunteers per shift) at 123 Main St.',
    expected: {
      title: 'Fundraiser car wash',
      description: 'Fundraiser car wash Saturday 9am-12pm and 1pm-4pm (3 volunteers per shift) at 123 Main St.',
      eventDate: '2026-11-28T09:00:00.000Z',
      location: '123 Main St',
      items: [],
      slots: [
        { title: '09:00–12:00', startTime: '2026-11-28T09:00:00.000Z', endTime: '2026-11-28T12:00:00.000Z', capacity: 3 },
        { title: '13:00–16:00', startTime: '2026-11-28T13:00:00.000Z', endTime: '2026-11-28T16:00:00.000Z', capacity: 3 },
      ],
    },
  },
  {
    name: 'cleanup with a single range and a head count',
    text: 'Neighborhood cleanup this Saturday 8 to noon, need 15 volunteers. Bring gloves and trash bags!',
    expected: {
      title: 'Neighborhood cleanup',
      description: 'Neighborhood cleanup this Saturday 8 to noon, need 15 volunteers. Bring gloves and trash bags!',
      eventDate: '2026-11-28T08:00:00.000Z',
      items: [{ name: 'Gloves' }, { name: 'Trash bags' }],
      slots: [{ title: '08:00–12:00', startTime: '2026-11-28T08:00:00.000Z', endTime: '2026-11-28T12:00:00.000Z', capacity: 15 }],
    },
  },
  {
    name: 'class party with an abbreviation in the title',
    text: "Class party for Ms. Lee's 2nd grade on Dec 18 at 1:30pm. Parents, please sign up to bring: juice boxes x24, 2 veggie trays, paper plates, napkins.",
    expected: {
      title: "Class party for Ms. Lee's 2nd grade",
      description:
        "Class party for Ms. Lee's 2nd grade on Dec 18 at 1:30pm. Parents, please sign up to bring: juice boxes x24, 2 veggie trays, paper plates, napkins.",
      eventDate: '2026-12-18T13:30:00.000Z',
      items: [
        { name: 'Juice boxes', quantityNeeded: 24 },
        { name: 'Veggie trays', quantityNeeded: 2 },
        { name: 'Paper plates' },
        { name: 'Napkins' },
      ],
      slots: [],
    },
  },
  {
    name: 'basketball concession shifts',
    text: 'Youth basketball tournament at Jefferson Middle School gym, Dec 5. Concession stand shifts 8am-10am, 10am-12pm, 12pm-2pm; 2 parents per shift.',
    expected: {
      title: 'Youth basketball tournament',
      description:
        'Youth basketball tournament at Jefferson Middle School gym, Dec 5. Concession stand shifts 8am-10am, 10am-12pm, 12pm-2pm; 2 parents per shift.',
      eventDate: '2026-12-05T08:00:00.000Z',
      location: 'Jefferson Middle School gym',
      items: [],
      slots: [
        { title: '08:00–10:00', startTime: '2026-12-05T08:00:00.000Z', endTime: '2026-12-05T10:00:00.000Z', capacity: 2 },
        { title: '10:00–12:00', startTime: '2026-12-05T10:00:00.000Z', endTime: '2026-12-05T12:00:00.000Z', capacity: 2 },
        { title: '12:00–14:00', startTime: '2026-12-05T12:00:00.000Z', endTime: '2026-12-05T14:00:00.000Z', capacity: 2 },
      ],
    },
  },
  {
    name: 'thanksgiving potluck with "We need:"',
    text: 'Thanksgiving potluck Thursday 4pm. We need: 1 turkey, 2 hams, mashed potatoes, green bean casserole, 3 pies.',
    expected: {
      title: 'Thanksgiving potluck',
      description: 'Thanksgiving potluck Thursday 4pm. We need: 1 turkey, 2 hams, mashed potatoes, green bean casserole, 3 pies.',
      eventDate: '2026-11-26T16:00:00.000Z',
      items: [
        { name: 'Turkey', quantityNeeded: 1 },
        { name: 'Hams', quantityNeeded: 2 },
        { name: 'Mashed potatoes' },
        { name: 'Green bean casserole' },
        { name: 'Pies', quantityNeeded: 3 },
      ],
      slots: [],
    },
  },
  {
    name: 'blood drive with one slot',
    text: "Blood drive at St. Mark's Church on Tuesday 10am-4pm, sign up for a slot",
    expected: {
      title: 'Blood drive',
      description: "Blood drive at St. Mark's Church on Tuesday 10am-4pm, sign up for a slot",
      eventDate: '2026-11-24T10:00:00.000Z',
      location: "St. Mark's Church",
      items: [],
      slots: [{ title: '10:00–16:00', startTime: '2026-11-24T10:00:00.000Z', endTime: '2026-11-24T16:00:00.000Z' }],
    },
  },
  {
    name: 'book fair over several days',
    text: 'School book fair volunteers needed Dec 2-4. Shifts: 8-10, 10-12, 12-2 with 3 helpers each.',
    expected: {
      title: 'School book fair volunteers',
      description: 'School book fair volunteers needed Dec 2-4. Shifts: 8-10, 10-12, 12-2 with 3 helpers each.',
      eventDate: '2026-12-02T08:00:00.000Z',
      items: [],
      slots: [
        { title: '08:00–10:00', startTime: '2026-12-02T08:00:00.000Z', endTime: '2026-12-02T10:00:00.000Z', capacity: 3 },
        { title: '10:00–12:00', startTime: '2026-12-02T10:00:00.000Z', endTime: '2026-12-02T12:00:00.000Z', capacity: 3 },
        { title: '12:00–14:00', startTime: '2026-12-02T12:00:00.000Z', endTime: '2026-12-02T14:00:00.000Z', capacity: 3 },
      ],
    },
  },
  {
    name: 'teacher lunch with a plain list under "Please bring:"',
    text: 'Teacher appreciation lunch on the 30th\nPlease bring:\nsalads\n2 lasagnas\ngarlic bread',
    expected: {
      title: 'Teacher appreciation lunch',
      description: 'Teacher appreciation lunch on the 30th\nPlease bring:\nsalads\n2 lasagnas\ngarlic bread',
      eventDate: '2026-11-30T12:00:00.000Z',
      items: [{ name: 'Salads' }, { name: 'Lasagnas', quantityNeeded: 2 }, { name: 'Garlic bread' }],
      slots: [],
    },
  },
  {
    name: 'toy drive with donations and no date',
    text: "Toy drive for the children's hospital. Donations: 20 stuffed animals, 10 board games, art supplies",
    expected: {
      title: "Toy drive for the children's hospital",
      description: "Toy drive for the children's hospital. Donations: 20 stuffed animals, 10 board games, art supplies",
      items: [{ name: 'Stuffed animals', quantityNeeded: 20 }, { name: 'Board games', quantityNeeded: 10 }, { name: 'Art supplies' }],
      slots: [],
    },
  },
  {
    name: 'pancake breakfast with roles',
    text: 'Pancake breakfast fundraiser Sunday 7-10am at the fire station. Need 4 cooks and 2 cashiers.',
    expected: {
      title: 'Pancake breakfast fundraiser',
      description: 'Pancake breakfast fundraiser Sunday 7-10am at the fire station. Need 4 cooks and 2 cashiers.',
      eventDate: '2026-11-29T07:00:00.000Z',
      location: 'The fire station',
      items: [
        { name: 'Cooks', quantityNeeded: 4 },
        { name: 'Cashiers', quantityNeeded: 2 },
      ],
      slots: [],
    },
  },
  {
    name: 'cookie swap in New York time',
    timeZone: 'America/New_York',
    text: 'Holiday cookie swap Dec 12 at 2 pm at 42 Elm Street. Bring six dozen cookies and the recipe!',
    expected: {
      title: 'Holiday cookie swap',
      description: 'Holiday cookie swap Dec 12 at 2 pm at 42 Elm Street. Bring six dozen cookies and the recipe!',
      eventDate: '2026-12-12T19:00:00.000Z',
      location: '42 Elm Street',
      items: [{ name: 'Cookies', quantityNeeded: 72 }],
      slots: [],
    },
  },
  {
    name: 'church rehearsal where "Sunday school" is no date',
    text: 'Sunday school Christmas pageant rehearsal next Saturday at 10am in the Fellowship Hall. We need 6 shepherd costumes, 3 crowns and a manger.',
    expected: {
      title: 'Sunday school Christmas pageant rehearsal',
      description:
        'Sunday school Christmas pageant rehearsal next Saturday at 10am in the Fellowship Hall. We need 6 shepherd costumes, 3 crowns and a manger.',
      eventDate: '2026-11-28T10:00:00.000Z',
      location: 'Fellowship Hall',
      items: [
        { name: 'Shepherd costumes', quantityNeeded: 6 },
        { name: 'Crowns', quantityNeeded: 3 },
        { name: 'Manger', quantityNeeded: 1 },
      ],
      slots: [],
    },
  },
  {
    name: 'garage sale without items',
    text: 'Garage sale for the PTA. Donations welcome',
    expected: { title: 'Garage sale for the PTA', description: 'Garage sale for the PTA. Donations welcome', items: [], slots: [] },
  },
  {
    name: 'little league shifts without a date',
    text: 'Little league snack bar: morning shift 9-12, afternoon shift 12-3, evening shift 3-6. 2 people each.',
    expected: {
      title: 'Little league snack bar',
      description: 'Little league snack bar: morning shift 9-12, afternoon shift 12-3, evening shift 3-6. 2 people each.',
      items: [],
      slots: [
        { title: 'Morning shift', capacity: 2 },
        { title: 'Afternoon shift', capacity: 2 },
        { title: 'Evening shift', capacity: 2 },
      ],
    },
  },
  {
    name: 'tree planting with 24-hour times',
    text: 'Tree planting day Jan 9 9:00-13:00 at Lindenpark. 20 volunteers, bring shovels and gloves',
    expected: {
      title: 'Tree planting day',
      description: 'Tree planting day Jan 9 9:00-13:00 at Lindenpark. 20 volunteers, bring shovels and gloves',
      eventDate: '2027-01-09T09:00:00.000Z',
      location: 'Lindenpark',
      items: [{ name: 'Shovels' }, { name: 'Gloves' }],
      slots: [{ title: '09:00–13:00', startTime: '2027-01-09T09:00:00.000Z', endTime: '2027-01-09T13:00:00.000Z', capacity: 20 }],
    },
  },
  {
    name: 'retreat spanning two days',
    text: 'Choir retreat Dec 5-6 at Camp Wawona',
    expected: {
      title: 'Choir retreat',
      description: 'Choir retreat Dec 5-6 at Camp Wawona',
      eventDate: '2026-12-05T12:00:00.000Z',
      location: 'Camp Wawona',
      items: [],
      slots: [],
    },
  },
  {
    name: 'market stall with labelled 24-hour shifts in Berlin time',
    timeZone: 'Europe/Berlin',
    text: 'Weihnachtsmarkt stall on Saturday, Dec 5: setup 8-10, selling 10-16, teardown 16-18 (2 people each). Location: Marktplatz',
    expected: {
      title: 'Weihnachtsmarkt stall',
      description:
        'Weihnachtsmarkt stall on Saturday, Dec 5: setup 8-10, selling 10-16, teardown 16-18 (2 people each). Location: Marktplatz',
      eventDate: '2026-12-05T07:00:00.000Z',
      location: 'Marktplatz',
      items: [],
      slots: [
        { title: 'Setup', startTime: '2026-12-05T07:00:00.000Z', endTime: '2026-12-05T09:00:00.000Z', capacity: 2 },
        { title: 'Selling', startTime: '2026-12-05T09:00:00.000Z', endTime: '2026-12-05T15:00:00.000Z', capacity: 2 },
        { title: 'Teardown', startTime: '2026-12-05T15:00:00.000Z', endTime: '2026-12-05T17:00:00.000Z', capacity: 2 },
      ],
    },
  },
  {
    name: 'soup kitchen opening with "We need volunteers"',
    text: 'We need volunteers for the soup kitchen on Dec 24, dinner shift 5-8pm, 6 people per shift',
    expected: {
      title: 'Volunteers for the soup kitchen',
      description: 'We need volunteers for the soup kitchen on Dec 24, dinner shift 5-8pm, 6 people per shift',
      eventDate: '2026-12-24T17:00:00.000Z',
      items: [],
      slots: [{ title: 'Dinner shift', startTime: '2026-12-24T17:00:00.000Z', endTime: '2026-12-24T20:00:00.000Z', capacity: 6 }],
    },
  },
  { name: 'two-word description', text: 'Bake sale', expected: { title: 'Bake sale', items: [], slots: [] } },
  {
    name: 'office party with weekday and ordinal',
    text: "RSVP for the office holiday party on Friday the 18th at 6 pm at Lou's Tavern; bring a white elephant gift ($20 max)",
    expected: {
      title: 'Office holiday party',
      description: "RSVP for the office holiday party on Friday the 18th at 6 pm at Lou's Tavern; bring a white elephant gift ($20 max)",
      eventDate: '2026-12-18T18:00:00.000Z',
      location: "Lou's Tavern",
      items: [{ name: 'White elephant gift', quantityNeeded: 1, notes: '$20 max' }],
      slots: [],
    },
  },
];

describe('draftFromDescription', () => {
  it.each(ROWS)('drafts $name', ({ text, timeZone, expected }) => {
    expect(draftFromDescription(text, { referenceDate: REFERENCE, timeZone })).toEqual(expected);
  });

  it('gives the same draft for the same input', () => {
    const text = ROWS[2].text;
    const first = draftFromDescription(text, { referenceDate: REFERENCE });
    const second = draftFromDescription(text, { referenceDate: new Date(REFERENCE.getTime()) });
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it.each([
    ['whitespace only', ' \n\t  '],
    ['emoji only', '🎉🥧🎉'],
    ['5000 characters', 'Bake sale! '.repeat(455).slice(0, 5000)],
    ['5000 characters without spaces', 'x'.repeat(5000)],
    ['punctuation only', '-- , ; : !! ??'],
    ['numbers only', '9-11 11-1 2 3 4 x4 (5)'],
  ])('survives odd input: %s', (_label, text) => {
    const draft = draftFromDescription(text, { referenceDate: REFERENCE, timeZone: 'America/New_York' });
    expect(draft.title.trim().length).toBeGreaterThan(0);
    expect(draft.title.length).toBeLessThanOrEqual(80);
    expect(Array.isArray(draft.items)).toBe(true);
    expect(Array.isArray(draft.slots)).toBe(true);
  });

  it('does not throw for an invalid reference date or an unknown time zone', () => {
    expect(draftFromDescription('Potluck next Saturday at 5pm', { referenceDate: new Date('nope') })).toEqual({
      title: 'Potluck',
      description: 'Potluck next Saturday at 5pm',
      items: [],
      slots: [],
    });
    expect(draftFromDescription('Potluck next Saturday at 5pm', { referenceDate: REFERENCE, timeZone: 'Mars/Olympus' }).eventDate).toBe(
      '2026-11-28T17:00:00.000Z',
    );
  });
});
