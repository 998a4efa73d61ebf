import * as chrono from 'chrono-node';
import {
  DEFAULT_TIME_ZONE,
  type DraftItemDto as DraftItem,
  type DraftSlotDto as DraftSlot,
  type SignupDraft,
  timeZoneOf,
  zoneOffsetMs,
} from '#libs/contracts';

/** Options of {@link draftFromDescription}. */
export interface DraftOptions {
  /** The instant relative dates ("next Saturday") are resolved from. */
  referenceDate: Date;
  /** IANA zone the written times are in; defaults to "UTC". */
  timeZone?: string;
}

/** A wall-clock date and time in the event's zone (month 1-12). */
interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** A stretch of the text, [start, end). */
interface Span {
  start: number;
  end: number;
}

/** A date or time chrono found, placed in the original text. */
interface DateMention {
  index: number;
  text: string;
  start: chrono.ParsedComponents;
}

/** The event's day, with whether the written text gave its time of day. */
interface EventMoment {
  local: LocalDateTime;
  timeKnown: boolean;
}

/** A time range found in the text, in minutes after the event day's midnight. */
interface TimeRange extends Span {
  startMinute: number;
  endMinute: number;
}

/** A time of day as written: hour as written, meridiem when given. */
interface WrittenTime {
  hour: number;
  minute: number;
  meridiem?: 'am' | 'pm';
  explicit: boolean;
}

/** What the item rules found: things to bring, and a head count of generic helpers. */
interface ItemFindings {
  items: DraftItem[];
  helpers?: { noun: string; count: number };
}

const FALLBACK_TITLE = 'Untitled signup sheet';
const MAX_TITLE = 80;
const ABBREVIATION_DOT = '\u2024';
const MAX_LOCATION = 80;
/** How far after its "at" or "in" a place phrase may end (it is cut to MAX_LOCATION anyway). */
const PLACE_REACH = 200;
/** The longest run of whitespace chrono reads. */
const MAX_WHITESPACE_RUN = 8;
const NOON = 12 * 60;
const DAY_MINUTES = 24 * 60;

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
const NUMBER = String.raw`(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a dozen|a couple(?: of)?)`;
const HELPER_NOUNS = /^(?:volunteers?|helpers?|people|persons?|folks|adults?|hands|workers?)$/i;
const HELPER_WORD = String.raw`(?:volunteers?|helpers?|people|persons?|folks|adults?|hands|workers?|parents?|spots?)`;
const MONTH_WORD = String.raw`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?`;
const CALENDAR_WORDS =
  /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|noon|midnight|today|tomorrow|tonight)\b/i;
const DAY_PART_WORDS = /\b(?:tonight|morning|afternoon|evening|noon|midnight)\b/i;
const PLACE_NOUNS = String.raw`(?:park|hall|gym|gymnasium|library|church|chapel|school|field|fields|center|centre|house|home|place|cafeteria|auditorium|lot|pavilion|clubhouse|room|office|court|courts|pool|beach|playground|backyard|yard|garden|kitchen|lobby|sanctuary|rink|stadium|track|barn|square|station|hospital|museum|shelter|pantry|cafe|café|restaurant|pub|hotel|studio|arena|theater|theatre|lodge|club|hut)`;
const STREET_WORDS = String.raw`(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|way|ct|court|pl|place|pkwy|parkway|hwy|highway)`;
const SLOT_NAME_WORDS = String.raw`(?:morning|afternoon|evening|night|overnight|early|late|midday|lunch|breakfast|dinner|first|second|third|fourth|final|last|setup|set-up|teardown|tear-down|cleanup|clean-up|opening|closing|kitchen|registration|check-in)`;
const GENERIC_SLOT_WORDS =
  /\b(?:shifts?|slots?|sessions?|times?|hours?|from|between|volunteers?|helpers?|open|this|next|tomorrow|tonight|today|the|and|or)\b/i;
const SLOT_KEYWORDS = /\b(?:shifts?|slots?|sessions?|volunteers?|helpers?)\b/i;
const COMPOUND_ITEMS = [
  'mac and cheese',
  'chips and salsa',
  'chips and dip',
  'salt and pepper',
  'bread and butter',
  'fish and chips',
  'rice and beans',
  'cookies and cream',
  'peanut butter and jelly',
  'cups and lids',
].map((compound) => new RegExp(`\\b${compound}\\b`, 'gi'));
const WHITESPACE = /\s/;
const ITEM_STOP_WORDS =
  /^(?:you|your|yourself|yourselves|us|we|them|everyone|everybody|someone|somebody|anyone|anybody|help|it|this|that|what|all|to|more|any|our|their|a|an|the|and|or|kids|children|family|families|friends|neighbors|neighbours|welcome|appreciated|accepted|encouraged|wanted|needed)$/i;

/** Builds a signup-sheet draft from a free-text description, offline and deterministically. */
export function draftFromDescription(description: string, options: DraftOptions): SignupDraft {
  const text = typeof description === 'string' ? description.trim() : '';
  const timeZone = validTimeZone(options.timeZone);
  const reference = options.referenceDate;
  const canDate = reference instanceof Date && !Number.isNaN(reference.getTime());
  const results = canDate ? parseDates(text, reference, timeZone) : [];
  const dateSpans = dateMentionSpans(text, results);
  const mentions = new SpanIndex(dateSpans);
  const ranges = findTimeRanges(text);
  const moment = canDate ? findEventMoment(text, results, ranges, reference, timeZone) : undefined;
  const location = findLocation(text, mentions);
  const findings = findItems(text, maskSpans(text, mentions));
  const title = findTitle(text, location ? new SpanIndex([...dateSpans, location.span]) : mentions);
  const slots = buildSlots(text, ranges, moment, timeZone, findings.helpers);
  const draft: SignupDraft = { title, items: findings.items, slots };
  if (text && comparable(text) !== comparable(title)) draft.description = text;
  if (moment) draft.eventDate = toUtcIso(moment.local, 0, timeZone);
  if (location) draft.location = location.name;
  return draft;
}

/** Rule: a missing zone, or one the API would refuse (timeZoneOf), means UTC. */
function validTimeZone(timeZone: string | undefined): string {
  return timeZoneOf(timeZone) ?? DEFAULT_TIME_ZONE;
}

/** The zone's offset from UTC in minutes at an instant (east positive). */
function zoneOffsetMinutes(timeZone: string, instant: Date): number {
  return Math.round(zoneOffsetMs(instant.getTime(), timeZone) / 60_000);
}

/** The UTC ISO instant of a wall-clock time (plus extra minutes) in a zone, correct across DST changes. */
function toUtcIso(local: LocalDateTime, extraMinutes: number, timeZone: string): string {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute + extraMinutes);
  let instant = wall - zoneOffsetMinutes(timeZone, new Date(wall)) * 60_000;
  instant = wall - zoneOffsetMinutes(timeZone, new Date(instant)) * 60_000;
  return new Date(instant).toISOString();
}

/** The reference instant as a wall-clock time in the zone. */
function localReference(reference: Date, timeZone: string): LocalDateTime {
  const shifted = new Date(reference.getTime() + zoneOffsetMinutes(timeZone, reference) * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/**
 * Runs chrono with the zone's offset at the reference date, preferring future dates. chrono reads the
 * text with long runs of whitespace cut short (some of its patterns take time quadratic in the
 * length of a run), and what it finds is placed back in the text.
 */
function parseDates(text: string, reference: Date, timeZone: string): DateMention[] {
  const { shortened, origin } = shortenWhitespaceRuns(text);
  const results = chrono.parse(shortened, { instant: reference, timezone: zoneOffsetMinutes(timeZone, reference) }, { forwardDate: true });
  return results
    .map((result): DateMention => {
      const index = origin[result.index];
      const end = origin[result.index + result.text.length - 1] + 1;
      return { index, text: text.slice(index, end), start: result.start };
    })
    .filter((mention) => !isWeekdayCompound(text, mention));
}

/**
 * The text with each run of whitespace longer than MAX_WHITESPACE_RUN cut to its last characters
 * (the first of them a line break if the part left out had one), and for each character kept its
 * index in the text. Text with no such run reaches chrono unchanged.
 */
function shortenWhitespaceRuns(text: string): { shortened: string; origin: number[] } {
  const kept: string[] = [];
  const origin: number[] = [];
  for (let index = 0; index < text.length;) {
    let end = index;
    while (end < text.length && WHITESPACE.test(text[end])) end++;
    if (end === index) end = index + 1;
    const from = Math.max(index, end - MAX_WHITESPACE_RUN);
    const leftOutLineBreak = text.slice(index, from).includes('\n');
    for (let at = from; at < end; at++) {
      kept.push(at === from && leftOutLineBreak ? '\n' : text[at]);
      origin.push(at);
    }
    index = end;
  }
  return { shortened: kept.join(''), origin };
}

/** Rule: a bare weekday that starts a compound noun ("Sunday school", "Saturday market") is no date. */
function isWeekdayCompound(text: string, result: DateMention): boolean {
  const onlyWeekday = result.start.isCertain('weekday') && !result.start.isCertain('day') && !result.start.isCertain('hour');
  const next = text.slice(result.index + result.text.length);
  return onlyWeekday && /^\s+(?:school|service|services|worship|mass|market|league|club|paper|special)\b/i.test(next);
}

/** Whether a chrono result names a day (not just a time of day). */
function namesDay(result: DateMention): boolean {
  return result.start.isCertain('day') || result.start.isCertain('weekday') || result.start.isCertain('month');
}

/** Rule: "on the 14th" / "the 14th at ..." names the next such day of the month. */
function findOrdinalDay(text: string): { day: number; span: Span } | undefined {
  const match = /\b(?:on\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b|the\s+(\d{1,2})(?:st|nd|rd|th)(?=\s*(?:$|[,.;!?]|\s(?:at|from)\b)))/i.exec(
    text,
  );
  const day = Number(match?.[1] ?? match?.[2]);
  if (!match || day < 1 || day > 31) return undefined;
  return { day, span: { start: match.index, end: match.index + match[0].length } };
}

/** The stretches of text that are dates or times, so title and location rules skip them. */
function dateMentionSpans(text: string, results: DateMention[]): Span[] {
  const spans = results.map((result) => ({ start: result.index, end: result.index + result.text.length }));
  const ordinal = findOrdinalDay(text);
  return ordinal ? [...spans, ordinal.span] : spans;
}

/**
 * Rule: the event is the first day mentioned with a time, else the first day (an "on the 18th" beats a bare weekday);
 * its time comes from that mention, a lone time outside ranges, the first range, a day part, else 12:00.
 */
function findEventMoment(
  text: string,
  results: DateMention[],
  ranges: TimeRange[],
  reference: Date,
  timeZone: string,
): EventMoment | undefined {
  const dated = results.find((result) => namesDay(result) && result.start.isCertain('hour')) ?? results.find(namesDay);
  const ordinal = ordinalDate(text, localReference(reference, timeZone));
  const day = dated && (dated.start.isCertain('day') || !ordinal) ? componentsOf(dated) : ordinal;
  if (!day) return undefined;
  if (dated?.start.isCertain('hour'))
    return { local: { ...day, hour: dated.start.get('hour') ?? 12, minute: dated.start.get('minute') ?? 0 }, timeKnown: true };
  const inRanges = new SpanIndex(ranges);
  const lone = results.find((result) => !namesDay(result) && result.start.isCertain('hour') && !inRanges.covers(result.index));
  if (lone) return { local: { ...day, hour: lone.start.get('hour') ?? 12, minute: lone.start.get('minute') ?? 0 }, timeKnown: true };
  if (ranges.length > 0)
    return { local: { ...day, hour: Math.floor(ranges[0].startMinute / 60), minute: ranges[0].startMinute % 60 }, timeKnown: true };
  const dayPart = dated ? dayPartMinutes(dated.text) : undefined;
  if (dayPart !== undefined) return { local: { ...day, hour: Math.floor(dayPart / 60), minute: dayPart % 60 }, timeKnown: true };
  return { local: { ...day, hour: 12, minute: 0 }, timeKnown: false };
}

/** Rule: a day part sets the time: morning 09:00, noon 12:00, afternoon 13:00, evening 18:00, tonight 19:00, midnight 00:00. */
function dayPartMinutes(mention: string): number | undefined {
  const part = DAY_PART_WORDS.exec(mention)?.[0].toLowerCase();
  const minutes: Record<string, number> = {
    morning: 9 * 60,
    noon: NOON,
    afternoon: 13 * 60,
    evening: 18 * 60,
    tonight: 19 * 60,
    midnight: 0,
  };
  return part === undefined ? undefined : minutes[part];
}

/** The wall-clock components chrono resolved for a result's start. */
function componentsOf(result: DateMention): LocalDateTime {
  const get = (component: chrono.Component, fallback: number): number => result.start.get(component) ?? fallback;
  return { year: get('year', 1970), month: get('month', 1), day: get('day', 1), hour: get('hour', 12), minute: get('minute', 0) };
}

/** The date "on the 14th" means: this month if still ahead (or today), else the next month having that day. */
function ordinalDate(text: string, today: LocalDateTime): LocalDateTime | undefined {
  const ordinal = findOrdinalDay(text);
  if (!ordinal) return undefined;
  let year = today.year;
  let month = ordinal.day >= today.day ? today.month : today.month + 1;
  for (let tries = 0; tries < 3; tries++, month++) {
    if (month > 12) {
      month = 1;
      year++;
    }
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (ordinal.day <= daysInMonth) return { year, month, day: ordinal.day, hour: 12, minute: 0 };
  }
  return undefined;
}

/** Reads one written time ("9", "9:30", "5pm", "noon"). */
function readTime(token: string): WrittenTime | undefined {
  const word = token.trim().toLowerCase();
  if (word === 'noon') return { hour: 12, minute: 0, meridiem: 'pm', explicit: true };
  if (word === 'midnight') return { hour: 12, minute: 0, meridiem: 'am', explicit: true };
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?$/.exec(word);
  if (!match) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  if (hour > 24 || minute > 59) return undefined;
  const meridiem = match[3] === 'a' ? 'am' : match[3] === 'p' ? 'pm' : undefined;
  if (meridiem && (hour === 0 || hour > 12)) return undefined;
  return { hour, minute, meridiem, explicit: Boolean(meridiem) || match[2] !== undefined };
}

/** Hours after midnight of a written hour under a meridiem. */
function toHour24(time: WrittenTime, meridiem: 'am' | 'pm' | undefined): number {
  if (time.hour > 12 || !meridiem) return time.hour;
  return (time.hour % 12) + (meridiem === 'pm' ? 12 : 0);
}

/** The opposite meridiem. */
function otherMeridiem(meridiem: 'am' | 'pm'): 'am' | 'pm' {
  return meridiem === 'am' ? 'pm' : 'am';
}

/** Rule: resolve a range so it ends after it starts; a bare 1-6 start is afternoon, and 11-1 is 11:00-13:00. */
function resolveRange(from: WrittenTime, to: WrittenTime, previousEnd: number | undefined): [number, number] {
  let meridiem = from.meridiem ?? to.meridiem;
  if (!from.meridiem && to.meridiem && toHour24(from, to.meridiem) * 60 + from.minute >= toHour24(to, to.meridiem) * 60 + to.minute) {
    meridiem = otherMeridiem(to.meridiem);
  }
  let start = toHour24(from, meridiem) * 60 + from.minute;
  if (!meridiem && from.hour >= 1 && from.hour <= 6) start += NOON;
  if (
    !meridiem &&
    from.hour <= 12 &&
    previousEnd !== undefined &&
    start < previousEnd &&
    start + NOON >= previousEnd &&
    start + NOON < DAY_MINUTES
  )
    start += NOON;
  let end = toHour24(to, to.meridiem ?? (from.meridiem && to.hour <= 12 ? from.meridiem : undefined)) * 60 + to.minute;
  while (end <= start) end += to.hour <= 12 && !to.meridiem ? NOON : DAY_MINUTES;
  return [start, end];
}

/** Rule: bare number ranges ("9-11") are times only when followed by a connective, not a noun ("2-3 volunteers"). */
function bareRangeAllowed(before: string, after: string): boolean {
  if (/\b(?:ages?|grades?|kids|sizes?|scores?|rooms?|no\.|#)\s*$/i.test(before)) return false;
  const next = /^\s*([a-z']+)/i.exec(after)?.[1];
  return !next || /^(?:and|or|then|on|at|in|each|for|with|shifts?|slots?|sessions?|o'clock|daily|both)$/i.test(next);
}

/** Rule: bare hours are 1-12 on both ends, or a 24-hour range like "10-16" that ends later the same day. */
function bareHoursAllowed(from: number, to: number): boolean {
  if (from >= 1 && from <= 12 && to >= 1 && to <= 12) return true;
  return to > 12 && to <= 24 && from < to;
}

const TIME = String.raw`(?:\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?|\bnoon\b|\bmidnight\b)`;
const TIME_RANGE = new RegExp(
  String.raw`(?<![\d/:.$\w-])(${TIME})\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b)\s*(${TIME})(?![\d/:]|-\d|\w)`,
  'gi',
);
const MONTH_BEFORE = new RegExp(String.raw`\b${MONTH_WORD}\s*$`, 'i');

/** Finds time ranges ("9-11", "9am-12pm", "from 8 to noon"), skipping dates, prices and counts. */
function findTimeRanges(text: string): TimeRange[] {
  const ranges: TimeRange[] = [];
  for (const match of text.matchAll(TIME_RANGE)) {
    const from = readTime(match[1]);
    const to = readTime(match[2]);
    const start = match.index;
    const end = start + match[0].length;
    const before = text.slice(Math.max(0, start - 12), start);
    if (!from || !to || MONTH_BEFORE.test(before)) continue;
    if (!from.explicit && !to.explicit && !bareRangeAllowed(before, text.slice(end))) continue;
    if (!from.explicit && !to.explicit && !bareHoursAllowed(from.hour, to.hour)) continue;
    const [startMinute, endMinute] = resolveRange(from, to, ranges.at(-1)?.endMinute);
    ranges.push({ start, end, startMinute, endMinute });
  }
  return ranges;
}

/** "HH:MM" of minutes after midnight (wrapping past midnight). */
function clock(minutes: number): string {
  const wrapped = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
}

/** Reads a count written as digits, "one".."twelve", "a dozen" or "a couple". */
function readCount(word: string): number | undefined {
  const normalized = word.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^\d+$/.test(normalized)) return Number(normalized);
  if (normalized === 'a dozen' || normalized === 'dozen') return 12;
  if (normalized.startsWith('a couple')) return 2;
  return NUMBER_WORDS[normalized];
}

const SHARED_CAPACITY = new RegExp(
  String.raw`\b(${NUMBER})\s+(?:${HELPER_WORD}\s+)?(?:each|per\s+(?:shift|slot|session|time\s*slot|block))\b`,
  'i',
);

/** Rule: a capacity for every slot from "N people each", "N per shift", "N volunteers per slot". */
function sharedCapacity(text: string): number | undefined {
  const match = SHARED_CAPACITY.exec(text);
  return match ? readCount(match[1]) : undefined;
}

/**
 * The spaces around the optional mark are one run unless the mark is there: `\s*[(:,–-]?\s*`
 * would try every split of a long run of spaces.
 */
const OWN_CAPACITY = new RegExp(String.raw`^\s*(?:[(:,–-]\s*)?(?:needs?\s+)?(${NUMBER})\s+${HELPER_WORD}\b(?!\s+(?:each|per)\b)`, 'i');

/** Rule: a capacity right after one range ("9-12 (4 people)", "9-12: 3 volunteers"). */
function ownCapacity(after: string): number | undefined {
  const match = OWN_CAPACITY.exec(after);
  return match ? readCount(match[1]) : undefined;
}

const NAMED_SLOT = new RegExp(String.raw`\b(${SLOT_NAME_WORDS}(?:\s+(?:shift|slot|session|crew|block))?)\s*(?::|-|–|\(|from)?\s*$`, 'i');

/** Rule: a slot is named by a qualifier just before its range ("morning shift 9-12"), or by its bullet label. */
function slotName(text: string, range: TimeRange): string | undefined {
  const before = text.slice(Math.max(0, range.start - 60), range.start);
  const named = NAMED_SLOT.exec(before);
  if (named) return capitalize(named[1].toLowerCase());
  const bullet = /(?:^|\n)\s*(?:[-*•]|\d+[.)])\s+([A-Za-z][A-Za-z' -]{0,40}?)\s*(?::|-|–|from)?\s*$/.exec(before);
  const label =
    bullet?.[1].trim() ?? /(?:^|[,;:\n(]|\band)\s*([A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*)?)\s*(?::|from)?\s*$/.exec(before)?.[1];
  if (!label || label.split(/\s+/).length > 4 || CALENDAR_WORDS.test(label) || GENERIC_SLOT_WORDS.test(label)) return undefined;
  return capitalize(label);
}

/** Rule: slots come from ranges when there are several or the text speaks of shifts; a lone helper count makes one slot. */
function buildSlots(
  text: string,
  ranges: TimeRange[],
  moment: EventMoment | undefined,
  timeZone: string,
  helpers: ItemFindings['helpers'],
): DraftSlot[] {
  const shared = sharedCapacity(text);
  if (ranges.length === 0) {
    if (!helpers && shared === undefined) return [];
    const slot: DraftSlot = { title: capitalize(helpers?.noun ?? 'Volunteers') };
    if (moment?.timeKnown) slot.startTime = toUtcIso(moment.local, 0, timeZone);
    slot.capacity = helpers?.count ?? shared;
    return [slot];
  }
  if (ranges.length < 2 && !SLOT_KEYWORDS.test(text)) return [];
  return ranges.map((range) => {
    const slot: DraftSlot = { title: slotName(text, range) ?? `${clock(range.startMinute)}–${clock(range.endMinute)}` };
    if (moment) {
      const midnight = { ...moment.local, hour: 0, minute: 0 };
      slot.startTime = toUtcIso(midnight, range.startMinute, timeZone);
      slot.endTime = toUtcIso(midnight, range.endMinute, timeZone);
    }
    const capacity = ownCapacity(text.slice(range.end)) ?? shared ?? (ranges.length === 1 ? helpers?.count : undefined);
    if (capacity !== undefined) slot.capacity = capacity;
    return slot;
  });
}

/**
 * Spans of the text, sorted once, so that whether an index is inside one and where the next one
 * starts take a binary search: the text may hold thousands of dates and each character is asked.
 */
class SpanIndex {
  private readonly starts: number[];
  /** The furthest end among the spans up to each one (spans may overlap). */
  private readonly reach: number[];

  constructor(spans: Span[]) {
    const sorted = [...spans].sort((a, b) => a.start - b.start);
    this.starts = sorted.map((span) => span.start);
    let furthest = 0;
    this.reach = sorted.map((span) => (furthest = Math.max(furthest, span.end)));
  }

  /** Whether an index falls inside one of the spans. */
  covers(index: number): boolean {
    const last = this.startsUpTo(index) - 1;
    return last >= 0 && this.reach[last] > index;
  }

  /** Whether a span starts at the index. */
  startsAt(index: number): boolean {
    return this.starts[this.startsUpTo(index) - 1] === index;
  }

  /** The first span start after an index, if any. */
  nextStart(index: number): number | undefined {
    return this.starts[this.startsUpTo(index)];
  }

  /** How many spans start at or before the index. */
  private startsUpTo(index: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle] <= index) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Rule: a place after "at"/"in"/"@"/"location:" is a capitalized phrase, an address, or "the/my ... park/hall/house". */
function findLocation(text: string, dateSpans: SpanIndex): { name: string; span: Span } | undefined {
  const marker = /(?:\b(?:at|in)\s+|@\s*|\b(?:location|where|venue|place|address)\s*:\s*)/gi;
  for (const match of text.matchAll(marker)) {
    const start = match.index + match[0].length;
    if (dateSpans.covers(start)) continue;
    const labeled = match[0].includes(':');
    const name = labeled ? labeledPlace(text.slice(start)) : placePhrase(text.slice(start), dateSpans.nextStart(start), start);
    if (name) return { name: capitalize(name.slice(0, MAX_LOCATION).trim()), span: { start: match.index, end: start + name.length } };
  }
  return undefined;
}

/** The place after a "Location:" label: the rest of the line or sentence. */
function labeledPlace(rest: string): string | undefined {
  const end = rest.search(/\n|\.(?:\s|$)/);
  const place = trimEndOf(rest.slice(0, end < 0 ? rest.length : end).trim(), /[.,;:!?]/);
  return place || undefined;
}

const LOWER_PLACE = new RegExp(String.raw`^(?:the|my|our|his|her|their)\s+(?:[a-z'-]+\s+){0,2}${PLACE_NOUNS}\b`);
const ADDRESS = new RegExp(String.raw`^\d{1,6}\s+(?:[A-Za-z0-9.'-]+\s+){0,3}${STREET_WORDS}\b\.?`, 'i');

/**
 * The place phrase at the start of the rest of the text, or undefined when it is no place. It ends
 * within PLACE_REACH characters: each "at" or "in" of the text looks that far at most, not to its end.
 */
function placePhrase(rest: string, nextDate: number | undefined, offset: number): string | undefined {
  const bodyStart = /^the\s+(?=[A-Z])/.exec(rest)?.[0].length ?? 0;
  const body = rest.slice(bodyStart);
  const isProper = /^[A-Z]/.test(body) && !CALENDAR_WORDS.test(body);
  if (!isProper && !ADDRESS.test(rest) && !LOWER_PLACE.test(rest)) return undefined;
  const skip = bodyStart + (/^(?:St|Mt|Ft)\.\s/.test(body) ? 4 : 0);
  const reach = Math.min(rest.length, bodyStart + PLACE_REACH);
  const stop =
    /,|\.(?:\s|$)|;|!|\?|\n|\(|\s[-–—]\s|\s(?:on|from|at|in|this|next|tomorrow|tonight|today|to|for|and|with|we|please|starting|between|until|till|by|where|when|who)\b|\s\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\b|-)/i;
  const stopAt = stop.exec(rest.slice(skip, reach));
  let end = stopAt ? skip + stopAt.index : reach;
  if (nextDate !== undefined) end = Math.min(end, nextDate - offset);
  const place = rest.slice(bodyStart, end).trim();
  return place && place.split(/\s+/).length <= 8 ? place : undefined;
}

/** Upper-cases the first letter. */
function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** Lower-cased text without trailing punctuation, to compare title and description. */
function comparable(value: string): string {
  return trimEndOf(value.toLowerCase(), /[\s.!?]/);
}

/**
 * The value without the characters at its end that `char` (a one-character class) matches. A loop,
 * because V8 tries /[…]+$/ from every start in a long run of such characters: quadratic time.
 */
function trimEndOf(value: string, char: RegExp): string {
  let end = value.length;
  while (end > 0 && char.test(value[end - 1])) end--;
  return value.slice(0, end);
}

/** The value without the characters at its start that `char` (a one-character class) matches. */
function trimStartOf(value: string, char: RegExp): string {
  let start = 0;
  while (start < value.length && char.test(value[start])) start++;
  return value.slice(start);
}

/** Leading filler of a title, each matched where the title so far starts (sticky). */
const FILLERS = [
  /(?:hi|hello|hey|dear|greetings)(?:\s+(?:all|everyone|everybody|folks|friends|team|neighbors|neighbours|parents|families|y'all|there))*\s*[,!.:-]*\s*/iy,
  /(?:let's|let’s|lets|let us)\s+(?:have|host|do|throw|organi[sz]e|hold|plan)\s+/iy,
  /(?:we're|we’re|we are|i'm|i’m|i am|we'll|we will|we'll be|we will be|i'll be|i will be)\s+(?:organi[sz]ing|hosting|having|holding|planning|throwing|running|putting on|doing|starting|have|host|hold|run)\s+/iy,
  /(?:please\s+)?(?:sign(?:\s|-)?up|register|volunteer|rsvp)\s+(?:for|to help (?:with|at)|to)\s+/iy,
  /(?:we|i)(?:'re|’re| are| am)?\s+(?:need|needs|looking for|seeking|recruiting)\s+/iy,
  /(?:please\s+)?(?:come\s+)?join\s+us\s+(?:for|at)\s+/iy,
  /(?:come\s+(?:to|out\s+(?:to|for))|you(?:'re|’re| are)\s+invited\s+to|there(?:'s|’s| is| will be)|it(?:'s|’s| is) time for|reminder:?|save the date(?:\s+for)?:?|announcing)\s+/iy,
  /(?:a|an|the|our|my|this year's|this year’s)\s+/iy,
];

/**
 * Rule: leading filler ("Hi all!", "Let's have a", "We're organizing a", "Sign up for the") is not part of the title.
 * The fillers move a start index, so a long run of them ("a a a …") costs no copy of the rest per filler.
 */
function stripFiller(sentence: string): string {
  const text = sentence.trimEnd();
  let start = text.length - text.trimStart().length;
  for (let changed = true; changed;) {
    changed = false;
    for (const filler of FILLERS) {
      filler.lastIndex = start;
      const found = filler.exec(text);
      if (!found?.[0]) continue;
      start += found[0].length;
      while (start < text.length && WHITESPACE.test(text[start])) start++;
      changed = true;
    }
  }
  return text.slice(start);
}

/** Replaces the dot of "Ms.", "St." and the like by a look-alike so sentences do not end there (same length). */
function protectAbbreviations(text: string): string {
  return text.replace(/\b(Mr|Mrs|Ms|Dr|St|Mt|Ft|Jr|Sr|Rev|Prof)\./g, `$1${ABBREVIATION_DOT}`);
}

/** Puts the dots of abbreviations back. */
function restoreAbbreviations(text: string): string {
  return text.replaceAll(ABBREVIATION_DOT, '.');
}

/** Cuts a string at a word boundary to at most `max` characters. */
function cutAtWord(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max + 1).replace(/\s+\S*$/, '');
  return (cut && cut.length <= max ? cut : value.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')).trim();
}

/** Rule: the title is the event noun phrase opening the text, without filler, date, time or place; else the first sentence. */
function findTitle(text: string, cutSpans: SpanIndex): string {
  const sentence = /[^\n.!?:]+(?:[.!?:]+|(?=\n)|$)/g;
  const stop =
    /\s(?:at|in|on|this|next|tomorrow|tonight|today|from|between|starting|beginning|is|are|will|we|we're|please|bring|need|needs|needed|who|where|when|with|to\s+(?:raise|support|benefit|help|celebrate))\b|[,;—–(]|\s-\s|\s\d+(?![a-z\d])/i;
  for (const match of protectAbbreviations(text).matchAll(sentence)) {
    if (/^\s*(?:[-*•]|\d+[.)])\s/.test(match[0])) continue;
    const raw = trimEndOf(match[0], /[.!?:]/);
    const body = stripFiller(raw);
    const bodyStart = match.index + raw.length - body.length;
    const dateCut = cutSpans.nextStart(bodyStart - 1);
    let end = stop.exec(body)?.index ?? body.length;
    if (dateCut !== undefined) end = Math.min(end, dateCut - bodyStart);
    const title = trimEndOf(body.slice(0, Math.max(0, end)), /[\s,.;:!?-]/)
      .replace(/(?<=\s)(?:and|the|a|an|our)$/i, '')
      .trim();
    if (/\p{L}/u.test(title)) return capitalize(cutAtWord(restoreAbbreviations(title), MAX_TITLE));
  }
  const first =
    text
      .split(/\n|(?<=[.!?])\s/)
      .find((part) => part.trim())
      ?.trim() ?? '';
  return first ? capitalize(cutAtWord(first, MAX_TITLE)) : FALLBACK_TITLE;
}

/** Blanks out date mentions (a comma, then spaces) so lists stop there; keeps line breaks and length. */
function maskSpans(text: string, spans: SpanIndex): string {
  const chars = [...text];
  let index = 0;
  const masked = chars.map((char) => {
    const position = index;
    index += char.length;
    if (char === '\n' || !spans.covers(position)) return char;
    return spans.startsAt(position) ? ',' : ' '.repeat(char.length);
  });
  return masked.join('');
}

/** Rule: items come from bullet lines, lines under a "bring:"/"need:" header, "need/bring ..." clauses, and bare counted lists. */
function findItems(text: string, masked: string): ItemFindings {
  const findings: ItemFindings = { items: [] };
  const originals = text.split('\n');
  let underHeader = false;
  masked.split('\n').forEach((line, index) => {
    const bullet = /^\s*(?:[-*•·▪]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) addBulletItems(bullet[1], originals[index] ?? line, findings);
    else if (underHeader && line.trim() && line.trim().split(/\s+/).length <= 6 && !/[.!?]$/.test(line.trim())) addList(line, findings);
    else if (line.trim()) addSentenceItems(line, findings);
    underHeader =
      (underHeader && Boolean(line.trim())) || /(?:need|needed|bring|items?|supplies|donations?|wish\s?list|menu)\s*:\s*$/i.test(line);
  });
  findings.helpers ??= helperCount(masked);
  findings.items = mergeItems(findings.items);
  return findings;
}

/** A bullet line is an item list unless it is a time slot or an info line ("Where: ..."). */
function addBulletItems(content: string, originalLine: string, findings: ItemFindings): void {
  if (findTimeRanges(originalLine).length > 0 || /^(?:when|where|time|date|location|venue|contact|rsvp|note|notes)\b\s*:/i.test(content))
    return;
  addList(content, findings);
}

/** Items of one line of prose: after a need/bring trigger, or a bare list of two or more counted things. */
function addSentenceItems(line: string, findings: ItemFindings): void {
  const trigger =
    /\b(?:we(?:'ll| will)?\s+(?:also\s+)?need|looking for|please bring|bring|needed|need|(?:items|supplies|donations)(?:\s+(?:needed|wanted|requested))?|wish\s?list|could use)\b\s*:?\s*/i;
  for (const [clause] of line.matchAll(/[^.!?;]+/g)) {
    const found = trigger.exec(clause);
    if (found) {
      addList(clause.slice(found.index + found[0].length), findings);
      continue;
    }
    for (const part of clause.split(':')) {
      const pieces = splitList(part);
      const counted = pieces.filter(
        (piece) => parseItem(piece)?.quantityNeeded !== undefined && !HELPER_NOUNS.test(parseItem(piece)?.name ?? ''),
      );
      if (counted.length >= 2 && counted.length === pieces.filter((piece) => parseItem(piece)).length) addList(part, findings);
    }
  }
}

const HELPER_COUNT = new RegExp(
  String.raw`(?<!\b(?:for|serves|feeds|of)\s)\b(${NUMBER})\s+(?:more\s+)?(volunteers|helpers|people|adults|workers)\b(?!\s+(?:each|per)\b)`,
  'i',
);

/** Rule: "20 volunteers" anywhere is a head count, unless per shift ("4 people each") or a serving size ("for 10 people"). */
function helperCount(text: string): ItemFindings['helpers'] {
  const match = HELPER_COUNT.exec(text);
  const count = match ? readCount(match[1]) : undefined;
  return match && count !== undefined ? { noun: match[2].toLowerCase(), count } : undefined;
}

/**
 * Splits a list on commas, semicolons, "and", "&", "/" and "+", keeping known dishes like "mac and cheese" whole.
 * A separator that starts with spaces starts where they start (`(?<!\s)`): `\s+and\s+` or `\s*&\s*`
 * alone would scan a long run of spaces from each of its characters.
 */
function splitList(list: string): string[] {
  let protectedList = list;
  for (const compound of COMPOUND_ITEMS) protectedList = protectedList.replace(compound, (found) => found.replace(/ and /i, ' \u0001 '));
  return protectedList
    .split(/,|;|(?<!\s)\s+and\s+|(?<!\s)\s+&\s*|&\s*|\s\+\s|\/(?!\d)/i)
    .map((piece) => piece.replace(/\u0001/g, 'and').trim())
    .filter((piece) => piece.length > 0);
}

/** Adds the items of a list, routing "N volunteers" to the helper count. */
function addList(list: string, findings: ItemFindings): void {
  if (findTimeRanges(list).length > 0 && !/\d\s*x\b/i.test(list)) list = list.slice(0, findTimeRanges(list)[0].start);
  for (const piece of splitList(list)) {
    const item = parseItem(piece);
    if (!item) continue;
    if (HELPER_NOUNS.test(item.name)) {
      if (item.quantityNeeded !== undefined && !/\b(?:each|per)\b/i.test(piece))
        findings.helpers ??= { noun: item.name, count: item.quantityNeeded };
      continue;
    }
    findings.items.push(item);
  }
}

const COUNT_PREFIX = new RegExp(
  String.raw`^(?:(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\s+dozen|(\d{1,4})\s*[x×]?|(${NUMBER}|an?))\s+(.*)$`,
  'i',
);

/** Rule: one item: a count as "2 pies", "two pies", "a dozen rolls", "chips x4", "4x chips" or "chips (4)"; notes from parentheses or "for ..."/"with ...". */
function parseItem(piece: string): DraftItem | undefined {
  const notes: string[] = [];
  let quantity: number | undefined;
  let rest = piece
    .replace(/\(([^)]*)\)?/g, (_whole: string, inner: string) => {
      const count = /^\s*(?:x\s*)?(\d{1,4})\s*$/i.exec(inner);
      if (count) quantity = Number(count[1]);
      else if (inner.trim()) notes.push(inner.trim());
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  rest = rest.replace(/^(?:please\s+)?(?:also\s+)?(?:some|any|extra|more|additional|plenty of|lots of|a lot of|a few|several)\s+/i, '');
  if (/^(?:the|your|their|his|her)\s/i.test(rest)) return undefined;
  const suffix = /^(.*?)(?:\s+[x×]\s*|\s*[×*:]\s*)(\d{1,4})$/i.exec(rest);
  const prefix = COUNT_PREFIX.exec(rest);
  if (suffix) {
    quantity ??= Number(suffix[2]);
    rest = suffix[1];
  } else if (prefix) {
    const dozens = prefix[1] ? (readCount(prefix[1]) ?? 1) * 12 : undefined;
    quantity ??= dozens ?? (prefix[2] ? Number(prefix[2]) : /^an?$/i.test(prefix[3]) ? 1 : readCount(prefix[3]));
    rest = prefix[4];
  }
  const measure = /^(lbs?|pounds?|kg|kilos?|gallons?|liters?|litres?|oz|ounces?)\s+of\s+(.+)$/i.exec(rest);
  if (measure && quantity !== undefined) {
    notes.unshift(`${quantity} ${measure[1]}`);
    quantity = undefined;
    rest = measure[2];
  }
  const tail = /\s+(for|with|without|to|from|at|by|on|in|so|that|which|who|if|per|each|please|too)\b(.*)$/i.exec(rest);
  if (tail) {
    if (/^(?:for|with|without)$/i.test(tail[1]) && tail[2].trim()) notes.push(`${tail[1].toLowerCase()}${tail[2]}`.trim());
    rest = rest.slice(0, tail.index);
  }
  const name = trimEndOf(trimStartOf(trimEndOf(rest.replace(/^(?:of\s+)/i, ''), /[\s.,;:!?*-]/), /[\s"'“-]/), /["'”]/).trim();
  if (!name || /^\d/.test(name) || name.split(/\s+/).length > 5 || ITEM_STOP_WORDS.test(name.split(/\s+/)[0]) || CALENDAR_WORDS.test(name))
    return undefined;
  if (/\d\s*(?:[ap]\.?m)\b|\b(?:shifts?|slots?|sessions?)\b/i.test(name) || !/\p{L}/u.test(name)) return undefined;
  const item: DraftItem = { name: capitalize(name) };
  if (quantity !== undefined && quantity > 0) item.quantityNeeded = quantity;
  if (notes.length > 0) item.notes = notes.join('; ');
  return item;
}

/** Rule: items with the same name (ignoring case and a plural "s") merge, keeping the larger count. */
function mergeItems(items: DraftItem[]): DraftItem[] {
  const merged = new Map<string, DraftItem>();
  for (const item of items) {
    const key = item.name.toLowerCase().replace(/e?s$/, '');
    const existing = merged.get(key);
    if (!existing) {
      merged.set(key, { ...item });
      continue;
    }
    if (item.quantityNeeded !== undefined) existing.quantityNeeded = Math.max(existing.quantityNeeded ?? 0, item.quantityNeeded);
    existing.notes ??= item.notes;
  }
  return [...merged.values()];
}
