import type { AnalyticsView } from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';

/**
 * The dashboard's charts: inline SVG drawn with presentation attributes only (the pages' CSP allows
 * no style attribute nor script). Each is a figure holding an `<svg role="img">` named by its
 * `<title>` and `<desc>` (the figures in words, for screen readers) and a table of the same numbers
 * with class `visually-hidden`, for those who read tables. Their ids are fixed: one chart of each
 * kind per page. Every colour has at least 4.5:1 contrast on white; the text is escaped.
 */

export type FillAnalytics = Pick<AnalyticsView, 'slots' | 'items'>;
export type RegistrationsOnDay = AnalyticsView['registrationsByDay'][number];
export type AttendanceCounts = AnalyticsView['attendance'];

export const CHART_COLORS = {
  text: '#1b1b1b',
  muted: '#555555',
  bar: '#0b5cad',
  track: '#767676',
  attended: '#1a7f37',
  noShow: '#a4000f',
  unmarked: '#595959',
} as const;

const WIDTH = 640;
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
const BAR_X = 190;
const BAR_WIDTH = 270;
const VALUE_X = BAR_X + BAR_WIDTH + 10;
const ROW = 28;
const LABEL_CHARS = 24;

/** A coordinate to 2 decimals; never NaN (a share of nothing is 0). */
function px(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : 0;
}

/** The part of `total` that `value` is, from 0 to 1. */
function share(value: number, total: number): number {
  return total > 0 ? Math.min(1, Math.max(0, value / total)) : 0;
}

/** A label cut to what fits beside the bars (whole characters, not halves of a surrogate pair); the table has it whole. */
function shortLabel(label: string): string {
  const chars = Array.from(label);
  return chars.length <= LABEL_CHARS ? label : `${chars.slice(0, LABEL_CHARS - 1).join('')}…`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function figure(kind: string, title: string, desc: string, height: number, body: SafeHtml, table: SafeHtml): SafeHtml {
  const titleId = `chart-${kind}-title`;
  const descId = `chart-${kind}-desc`;
  return html`<figure class="chart chart-${kind}">
<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${titleId} ${descId}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="${FONT}" font-size="14" fill="${CHART_COLORS.text}">
<title id="${titleId}">${title}</title>
<desc id="${descId}">${desc}</desc>
${body}
</svg>
${table}
</figure>`;
}

function empty(kind: string, text: string): SafeHtml {
  return html`<p class="chart-empty chart-${kind}">${text}</p>`;
}

interface FillRow {
  kind: 'Slot' | 'Item';
  label: string;
  done: number;
  of: number;
  waiting: number;
}

function fillRows({ slots, items }: FillAnalytics): FillRow[] {
  return [
    ...slots.map((s) => ({ kind: 'Slot' as const, label: s.title, done: s.registered, of: s.capacity, waiting: s.waiting })),
    ...items.map((i) => ({ kind: 'Item' as const, label: i.name, done: i.claimed, of: i.needed, waiting: i.waiting })),
  ];
}

function fillSentence(row: FillRow): string {
  const taken = row.kind === 'Slot' ? `${row.done} of ${plural(row.of, 'place', 'places')} taken` : `${row.done} of ${row.of} claimed`;
  return `${row.kind} ${row.label}: ${taken}${row.waiting > 0 ? `, ${row.waiting} waiting` : ''}.`;
}

/** One horizontal bar per slot (registered of capacity) and item (claimed of needed), with "3 of 5" and who waits. */
export function fillChart(analytics: FillAnalytics): SafeHtml {
  const rows = fillRows(analytics);
  if (rows.length === 0) return empty('fill', 'No slots or items yet.');
  const bars = rows.map((row, i) => {
    const y = i * ROW;
    const filled = px(BAR_WIDTH * share(row.done, row.of));
    return html`<g>
<text x="0" y="${y + 19}">${shortLabel(row.label)}</text>
<rect x="${BAR_X}" y="${y + 5}" width="${BAR_WIDTH}" height="18" fill="#ffffff" stroke="${CHART_COLORS.track}"/>
${filled > 0 && html`<rect x="${BAR_X}" y="${y + 5}" width="${filled}" height="18" fill="${CHART_COLORS.bar}"/>`}
<text x="${VALUE_X}" y="${y + 19}">${row.done} of ${row.of}${row.waiting > 0 && html`<tspan fill="${CHART_COLORS.muted}"> · ${row.waiting} waiting</tspan>`}</text>
</g>`;
  });
  const table = html`<table class="visually-hidden">
<caption>Places filled</caption>
<thead><tr><th scope="col">Slot or item</th><th scope="col">Taken</th><th scope="col">Of</th><th scope="col">Waiting</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><th scope="row">${r.kind}: ${r.label}</th><td>${r.done}</td><td>${r.of}</td><td>${r.waiting}</td></tr>`)}</tbody>
</table>`;
  return figure('fill', 'Places filled', rows.map(fillSentence).join(' '), rows.length * ROW + 4, html`${bars}`, table);
}

const DAY_MS = 86_400_000;
const PLOT_X = 40;
const PLOT_TOP = 12;
const PLOT_HEIGHT = 160;
const PLOT_WIDTH = WIDTH - PLOT_X - 10;
const DATE_LABELS = 6;

/** Days since the epoch of a YYYY-MM-DD calendar day. */
function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

function dayLabel(date: string, withYear: boolean): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(withYear && { year: 'numeric' }),
  });
}

/** At most DATE_LABELS indexes from 0 to `last`, evenly spread, both ends included. */
function labelSteps(last: number): number[] {
  if (last === 0) return [0];
  const steps = Math.min(DATE_LABELS - 1, last);
  return Array.from({ length: steps + 1 }, (_, i) => Math.round((i * last) / steps));
}

/**
 * Registrations per day (days without any are gaps of the time axis): a bar per day, a few dates
 * along the axis, and the highest day's count as the top of the scale.
 */
export function registrationsChart(points: readonly RegistrationsOnDay[]): SafeHtml {
  const days = points.filter((p) => p.count > 0);
  if (days.length === 0) return empty('registrations', 'No registrations yet.');
  const first = dayNumber(days[0]!.date);
  const span = dayNumber(days.at(-1)!.date) - first + 1;
  const max = Math.max(...days.map((p) => p.count));
  const total = days.reduce((sum, p) => sum + p.count, 0);
  const busiest = days.find((p) => p.count === max)!;
  const withYear = days[0]!.date.slice(0, 4) !== days.at(-1)!.date.slice(0, 4);
  const slot = PLOT_WIDTH / span;
  const barWidth = px(Math.max(1, slot * 0.8));
  const baseline = PLOT_TOP + PLOT_HEIGHT;
  const bars = days.map((p) => {
    const height = px(PLOT_HEIGHT * share(p.count, max));
    const x = px(PLOT_X + (dayNumber(p.date) - first) * slot + (slot - barWidth) / 2);
    return html`<rect x="${x}" y="${px(baseline - height)}" width="${barWidth}" height="${height}" fill="${CHART_COLORS.bar}"/>`;
  });
  const labels = labelSteps(span - 1).map((offset) => {
    const date = new Date((first + offset) * DAY_MS).toISOString().slice(0, 10);
    const x = px(PLOT_X + (offset + 0.5) * slot);
    const anchor = offset === 0 && span > 1 ? 'start' : offset === span - 1 && span > 1 ? 'end' : 'middle';
    return html`<text x="${x}" y="${baseline + 18}" text-anchor="${anchor}">${dayLabel(date, withYear)}</text>`;
  });
  const body = html`<text x="${PLOT_X - 6}" y="${PLOT_TOP + 5}" text-anchor="end">${max}</text>
<text x="${PLOT_X - 6}" y="${baseline + 5}" text-anchor="end">0</text>
<line x1="${PLOT_X}" y1="${PLOT_TOP}" x2="${PLOT_X + PLOT_WIDTH}" y2="${PLOT_TOP}" stroke="${CHART_COLORS.track}" stroke-dasharray="4 4"/>
${bars}
<line x1="${PLOT_X}" y1="${baseline}" x2="${PLOT_X + PLOT_WIDTH}" y2="${baseline}" stroke="${CHART_COLORS.text}"/>
${labels}`;
  const from = dayLabel(days[0]!.date, true);
  const to = dayLabel(days.at(-1)!.date, true);
  const desc =
    `${plural(total, 'registration', 'registrations')} ${span === 1 ? `on ${from}` : `from ${from} to ${to}`}, ` +
    `on ${plural(days.length, 'day', 'days')}; the most in a day: ${max}, on ${dayLabel(busiest.date, true)}.`;
  const table = html`<table class="visually-hidden">
<caption>Registrations per day</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Registrations</th></tr></thead>
<tbody>${days.map((p) => html`<tr><th scope="row"><time datetime="${p.date}">${dayLabel(p.date, true)}</time></th><td>${p.count}</td></tr>`)}</tbody>
</table>`;
  return figure('registrations', 'Registrations per day', desc, baseline + 26, body, table);
}

const ATTENDANCE_ROWS = [
  { key: 'attended', label: 'Attended', color: CHART_COLORS.attended },
  { key: 'noShow', label: 'No-show', color: CHART_COLORS.noShow },
  { key: 'unmarked', label: 'Not marked', color: CHART_COLORS.unmarked },
] as const;

/** Attended, no-show and not yet marked: a bar each, as a share of all three, with the count and percentage. */
export function attendanceChart(attendance: AttendanceCounts): SafeHtml {
  const total = attendance.attended + attendance.noShow + attendance.unmarked;
  if (total === 0) return empty('attendance', 'No participants to check in yet.');
  const rows = ATTENDANCE_ROWS.map((r) => ({ ...r, count: attendance[r.key], percent: Math.round(share(attendance[r.key], total) * 100) }));
  const bars = rows.map((row, i) => {
    const y = i * ROW;
    const filled = px(BAR_WIDTH * share(row.count, total));
    return html`<g>
<text x="0" y="${y + 19}">${row.label}</text>
<rect x="${BAR_X}" y="${y + 5}" width="${BAR_WIDTH}" height="18" fill="#ffffff" stroke="${CHART_COLORS.track}"/>
${filled > 0 && html`<rect x="${BAR_X}" y="${y + 5}" width="${filled}" height="18" fill="${row.color}"/>`}
<text x="${VALUE_X}" y="${y + 19}">${row.count} (${row.percent}%)</text>
</g>`;
  });
  const desc = `Of ${plural(total, 'participant', 'participants')}: ${rows.map((r) => `${r.label.toLowerCase()} ${r.count} (${r.percent}%)`).join(', ')}.`;
  const table = html`<table class="visually-hidden">
<caption>Attendance</caption>
<thead><tr><th scope="col">Attendance</th><th scope="col">Participants</th><th scope="col">Share</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><th scope="row">${r.label}</th><td>${r.count}</td><td>${r.percent}%</td></tr>`)}</tbody>
</table>`;
  return figure('attendance', 'Attendance', desc, rows.length * ROW + 4, html`${bars}`, table);
}
