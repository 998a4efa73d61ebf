import {
  type ExportedParticipant,
  type ExportedSelection,
  type ExportedWaitlistEntry,
  formatDateTime,
  formatTimeRange,
  type ParticipantExportPage,
} from '#libs/contracts';

/** The two formats of a participants export. */
export type ExportFormat = 'csv' | 'ndjson';

/** The content type of each format. */
export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** The byte order mark a CSV starts with, so spreadsheet apps read it as UTF-8. */
const BOM = '\uFEFF';
/** A cell a spreadsheet could take for a formula (OWASP, CSV injection): it gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell RFC 4180 quotes. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180): text that starts like a formula gets a leading apostrophe, then
 * text holding a comma, a quote or a line break is quoted, its quotes doubled.
 */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record, ended by CRLF. */
export function csvRecord(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The first line of an export: the CSV header (after the BOM), nothing for NDJSON. */
export function exportPreamble(format: ExportFormat, page: ParticipantExportPage): string {
  if (format === 'ndjson') return '';
  return (
    BOM +
    csvRecord([
      'id',
      'name',
      'email',
      'phone',
      'status',
      'registeredAt',
      'registeredAtUtc',
      'selections',
      'waitlist',
      ...page.questions.map((q) => q.label),
      'attendance',
      'checkedInAt',
      'checkedInAtUtc',
      'hoursServed',
      'remindedAt',
      'remindedAtUtc',
    ])
  );
}

/** An instant in the zone, as people read it; null stays null. */
function local(at: string | null, timeZone: string): string | null {
  return at === null ? null : formatDateTime(at, timeZone);
}

/** ` x2` after a name, when more than one place or unit. */
const times = (quantity: number) => (quantity > 1 ? ` x${quantity}` : '');

/** A slot's times in the zone (`Sat, Dec 5, 2026, 5:00 – 7:00 PM EST`), or null for an item or a slot without times. */
function timeOf(selection: ExportedSelection, timeZone: string): string | null {
  if (selection.startTime === null) return null;
  return formatTimeRange(selection.startTime, selection.endTime ?? selection.startTime, timeZone);
}

function selectionText(selection: ExportedSelection, timeZone: string): string {
  const time = timeOf(selection, timeZone);
  return `${selection.title}${time === null ? '' : ` (${time})`}${times(selection.quantity)}`;
}

function waitlistText(entry: ExportedWaitlistEntry): string {
  return `${entry.title}${times(entry.quantity)}: ${entry.state}${entry.position === null ? '' : ` #${entry.position}`}`;
}

/** An answer as a cell: choices joined by `; `, yes/no for a yes_no question. */
function answerText(answer: ExportedParticipant['answers'][string] | undefined): string {
  if (answer === undefined) return '';
  if (Array.isArray(answer)) return answer.join('; ');
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  return String(answer);
}

/** attended or no_show once the organizer recorded it, else null. */
function attendanceOf(participant: ExportedParticipant): 'attended' | 'no_show' | null {
  return participant.status === 'attended' || participant.status === 'no_show' ? participant.status : null;
}

function csvRow(p: ExportedParticipant, questions: ParticipantExportPage['questions'], timeZone: string): string {
  return csvRecord([
    p.id,
    p.name,
    p.email,
    p.phone ?? '',
    p.status,
    local(p.createdAt, timeZone)!,
    p.createdAt,
    p.selections.map((s) => selectionText(s, timeZone)).join('; '),
    p.waitlist.map(waitlistText).join('; '),
    ...questions.map((q) => answerText(p.answers[q.id])),
    attendanceOf(p) ?? '',
    local(p.checkedInAt, timeZone) ?? '',
    p.checkedInAt ?? '',
    p.hoursServed === null ? '' : String(p.hoursServed),
    local(p.remindedAt, timeZone) ?? '',
    p.remindedAt ?? '',
  ]);
}

function ndjsonLine(p: ExportedParticipant, questions: ParticipantExportPage['questions'], timeZone: string): string {
  const answers = Object.fromEntries(
    questions.filter((q) => p.answers[q.id] !== undefined).map((q) => [q.id, { label: q.label, answer: p.answers[q.id] }]),
  );
  const line = {
    id: p.id,
    name: p.name,
    email: p.email,
    phone: p.phone,
    status: p.status,
    timeZone,
    createdAt: p.createdAt,
    createdAtLocal: local(p.createdAt, timeZone),
    selections: p.selections.map((s) => ({ ...s, time: timeOf(s, timeZone) })),
    waitlist: p.waitlist.map((e) => ({ ...e, joinedAtLocal: local(e.joinedAt, timeZone) })),
    answers,
    attendance: {
      status: attendanceOf(p),
      checkedInAt: p.checkedInAt,
      checkedInAtLocal: local(p.checkedInAt, timeZone),
      hoursServed: p.hoursServed,
    },
    remindedAt: p.remindedAt,
    remindedAtLocal: local(p.remindedAt, timeZone),
  };
  return `${JSON.stringify(line)}\n`;
}

/**
 * The text of one page's participants. CSV columns follow `questions`, the questions of the
 * export's first page (its header), so every row has the header's columns.
 */
export function exportRows(format: ExportFormat, page: ParticipantExportPage, questions: ParticipantExportPage['questions']): string {
  const { timeZone } = page.signup;
  const row = format === 'csv' ? csvRow : ndjsonLine;
  return page.data.map((p) => row(p, format === 'csv' ? questions : page.questions, timeZone)).join('');
}

/**
 * An export's text, page after page: the first page (already read, so its problems answered
 * before the status was sent), then each next page read only once the one before was taken
 * by the response, so at most one page is held at a time.
 */
export async function* exportText(
  format: ExportFormat,
  first: ParticipantExportPage,
  next: (cursor: string) => Promise<ParticipantExportPage>,
): AsyncGenerator<Buffer> {
  yield Buffer.from(exportPreamble(format, first) + exportRows(format, first, first.questions));
  let cursor = first.nextCursor;
  while (cursor !== null) {
    const page = await next(cursor);
    yield Buffer.from(exportRows(format, page, first.questions));
    cursor = page.nextCursor;
  }
}

/** A file name from the signup's slug: letters, digits, dots, dashes and underscores only. */
export function exportFileName(slug: string, format: ExportFormat): string {
  return `${slug.replace(/[^A-Za-z0-9._-]/g, '-')}-participants.${format}`;
}
