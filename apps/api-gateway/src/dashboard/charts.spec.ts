import type { SafeHtml } from '#libs/web';
import { attendanceChart, CHART_COLORS, type FillAnalytics, fillChart, registrationsChart } from './charts.js';

const ID = '8f14e45f-ceea-467f-a0e6-3b7d1d2c9a11';

function slot(title: string, capacity: number, registered: number, waiting = 0): FillAnalytics['slots'][number] {
  return { id: ID, title, capacity, registered, ratio: capacity ? registered / capacity : 0, waiting };
}

function item(name: string, needed: number, claimed: number, waiting = 0): FillAnalytics['items'][number] {
  return { id: ID, name, needed, claimed, ratio: needed ? claimed / needed : 0, waiting };
}

function all(pattern: RegExp, text: string): string[][] {
  return [...text.matchAll(pattern)].map((m) => m.slice(1));
}

function svgOf(chart: SafeHtml): string {
  return /<svg[\s\S]*<\/svg>/.exec(chart.value)![0];
}

/** The drawn texts of the SVG, tags removed, entities as written. */
function texts(chart: SafeHtml): string[] {
  return all(/<text [^>]*>([\s\S]*?)<\/text>/g, svgOf(chart)).map(([t]) => t!.replace(/<[^>]+>/g, ''));
}

function rects(chart: SafeHtml): Record<string, string>[] {
  return all(/<rect ([^>]*)\/>/g, svgOf(chart)).map(([attributes]) => Object.fromEntries(all(/([\w-]+)="([^"]*)"/g, attributes!)));
}

function tableRows(chart: SafeHtml): string[][] {
  const tbody = /<tbody>([\s\S]*)<\/tbody>/.exec(chart.value)![1]!;
  return all(/<tr>([\s\S]*?)<\/tr>/g, tbody).map(([row]) => all(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g, row!).map(([c]) => c!));
}

function descOf(chart: SafeHtml): string {
  return /<desc id="[^"]+">([\s\S]*?)<\/desc>/.exec(chart.value)![1]!;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The WCAG contrast ratio of a colour on white. */
function contrastOnWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

const FILL = fillChart({
  slots: [slot('Setup', 5, 3, 2), slot('Cleanup', 2, 0)],
  items: [item('Cups', 4, 4)],
});
const REGISTRATIONS = registrationsChart([
  { date: '2026-05-01', count: 2 },
  { date: '2026-05-02', count: 5 },
  { date: '2026-05-05', count: 1 },
]);
const ATTENDANCE = attendanceChart({ attended: 5, noShow: 2, unmarked: 3 });
const CHARTS = { fill: FILL, registrations: REGISTRATIONS, attendance: ATTENDANCE };

describe.each(Object.entries(CHARTS))('the %s chart', (kind, chart) => {
  it('is an image named by its title and its description of the figures', () => {
    const svg = /<svg [^>]*>/.exec(chart.value)![0];
    expect(svg).toContain('role="img"');
    expect(svg).toContain(`aria-labelledby="chart-${kind}-title chart-${kind}-desc"`);
    expect(chart.value).toContain(`<title id="chart-${kind}-title">`);
    expect(chart.value).toContain(`<desc id="chart-${kind}-desc">`);
    expect(chart.value).toMatch(/^<figure class="chart chart-[a-z]+">[\s\S]*<\/figure>$/);
  });

  it('has a visually hidden table of the same figures', () => {
    expect(chart.value).toMatch(/<\/svg>\n<table class="visually-hidden">\n<caption>/);
  });

  it('uses no style attribute, script or NaN (the CSP allows presentation attributes only)', () => {
    expect(chart.value).not.toMatch(/style=|<script|NaN|undefined|Infinity/);
  });

  it('draws in colours of at least 4.5:1 contrast on white', () => {
    const colours = new Set(all(/(?:fill|stroke)="(#[0-9a-f]{6})"/g, chart.value).map(([c]) => c!));
    colours.delete('#ffffff');
    expect(colours.size).toBeGreaterThan(0);
    for (const colour of colours) expect([colour, contrastOnWhite(colour) >= 4.5]).toEqual([colour, true]);
  });
});

describe('CHART_COLORS', () => {
  it.each(Object.entries(CHART_COLORS))('%s has at least 4.5:1 contrast on white', (_, colour) => {
    expect(contrastOnWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('fillChart', () => {
  it('draws a bar per slot and item, filled by the share taken', () => {
    const filled = rects(FILL).filter((r) => r['fill'] === CHART_COLORS.bar);
    // 3 of 5 and 4 of 4 of 270 pixels; Cleanup (0 of 2) draws its empty track only.
    expect(filled.map((r) => r['width'])).toEqual(['162', '270']);
    expect(rects(FILL).filter((r) => r['fill'] === '#ffffff')).toHaveLength(3);
  });

  it('labels each bar with its name, "3 of 5" and who waits when anyone does', () => {
    expect(texts(FILL)).toEqual(['Setup', '3 of 5 · 2 waiting', 'Cleanup', '0 of 2', 'Cups', '4 of 4']);
  });

  it('says every figure in words', () => {
    expect(descOf(FILL)).toBe('Slot Setup: 3 of 5 places taken, 2 waiting. Slot Cleanup: 0 of 2 places taken. Item Cups: 4 of 4 claimed.');
    expect(tableRows(FILL)).toEqual([
      ['Slot: Setup', '3', '5', '2'],
      ['Slot: Cleanup', '0', '2', '0'],
      ['Item: Cups', '4', '4', '0'],
    ]);
  });

  it("escapes an organizer's markup in titles and names everywhere", () => {
    const chart = fillChart({ slots: [slot('<script>x()</script>', 1, 1)], items: [item('"Cups" & <b>', 1, 0)] });
    expect(chart.value).not.toMatch(/<script|<b>/);
    expect(texts(chart)[0]).toBe('&lt;script&gt;x()&lt;/script&gt;');
    expect(descOf(chart)).toContain('Item &quot;Cups&quot; &amp; &lt;b&gt;: 0 of 1 claimed.');
    expect(tableRows(chart)[0]![0]).toBe('Slot: &lt;script&gt;x()&lt;/script&gt;');
  });

  it('shortens a long label beside its bar, never in the description or the table', () => {
    const title = 'Registration desk at the north entrance';
    const chart = fillChart({ slots: [slot(title, 1, 0)], items: [] });
    expect(texts(chart)[0]).toBe('Registration desk at th…');
    expect(descOf(chart)).toContain(title);
    expect(tableRows(chart)[0]![0]).toBe(`Slot: ${title}`);
  });

  it('cuts a label between characters, not inside one', () => {
    const chart = fillChart({ slots: [slot('🎉'.repeat(30), 1, 0)], items: [] });
    expect(texts(chart)[0]).toBe(`${'🎉'.repeat(23)}…`);
  });

  it('fills a bar at most to its end when more are in than there is room (capacity lowered later)', () => {
    const chart = fillChart({ slots: [slot('Setup', 2, 3)], items: [] });
    expect(rects(chart).find((r) => r['fill'] === CHART_COLORS.bar)!['width']).toBe('270');
    expect(texts(chart)).toContain('3 of 2');
  });

  it('says there is nothing to fill without slots or items', () => {
    expect(fillChart({ slots: [], items: [] }).value).toBe('<p class="chart-empty chart-fill">No slots or items yet.</p>');
  });
});

describe('registrationsChart', () => {
  it('draws a bar per day with registrations, on a time axis where days without any are gaps', () => {
    const bars = rects(REGISTRATIONS);
    expect(bars.map((r) => r['height'])).toEqual(['64', '160', '32']);
    // 5 days over 590 pixels: 118 a day, bars 94.4 wide in the middle of theirs.
    expect(bars.map((r) => r['x'])).toEqual(['51.8', '169.8', '523.8']);
    expect(new Set(bars.map((r) => r['width']))).toEqual(new Set(['94.4']));
  });

  it('labels the top of the scale with the highest count, and 0 at the baseline', () => {
    expect(texts(REGISTRATIONS).slice(0, 2)).toEqual(['5', '0']);
  });

  it('labels every day of a short span', () => {
    expect(texts(REGISTRATIONS).slice(2)).toEqual(['May 1', 'May 2', 'May 3', 'May 4', 'May 5']);
  });

  it('thins the dates of a long span to six, first and last included, with years when it crosses one', () => {
    const chart = registrationsChart([
      { date: '2025-11-01', count: 1 },
      { date: '2026-04-30', count: 3 },
    ]);
    // 181 days: one date every 36 days.
    expect(texts(chart).slice(2)).toEqual(['Nov 1, 2025', 'Dec 7, 2025', 'Jan 12, 2026', 'Feb 17, 2026', 'Mar 25, 2026', 'Apr 30, 2026']);
    expect(rects(chart).map((r) => r['width'])).toEqual(['2.61', '2.61']);
  });

  it('draws bars at least a pixel wide over a span of years', () => {
    const chart = registrationsChart([
      { date: '2024-01-01', count: 1 },
      { date: '2026-09-26', count: 1 },
    ]);
    expect(rects(chart).map((r) => r['width'])).toEqual(['1', '1']);
  });

  it('says the total, the span and the busiest day in words, and lists each day in the table', () => {
    expect(descOf(REGISTRATIONS)).toBe('8 registrations from May 1, 2026 to May 5, 2026, on 3 days; the most in a day: 5, on May 2, 2026.');
    expect(tableRows(REGISTRATIONS)).toEqual([
      ['<time datetime="2026-05-01">May 1, 2026</time>', '2'],
      ['<time datetime="2026-05-02">May 2, 2026</time>', '5'],
      ['<time datetime="2026-05-05">May 5, 2026</time>', '1'],
    ]);
  });

  it('draws a single day as one full bar and one date', () => {
    const chart = registrationsChart([{ date: '2026-05-01', count: 1 }]);
    expect(rects(chart)).toEqual([{ x: '99', y: '12', width: '472', height: '160', fill: CHART_COLORS.bar }]);
    expect(texts(chart)).toEqual(['1', '0', 'May 1']);
    expect(descOf(chart)).toBe('1 registration on May 1, 2026, on 1 day; the most in a day: 1, on May 1, 2026.');
  });

  it('says there are no registrations yet rather than drawing an empty scale', () => {
    expect(registrationsChart([]).value).toBe('<p class="chart-empty chart-registrations">No registrations yet.</p>');
    expect(registrationsChart([{ date: '2026-05-01', count: 0 }]).value).toContain('No registrations yet.');
  });
});

describe('attendanceChart', () => {
  it('draws attended, no-show and not marked as shares of all three, in their colours', () => {
    expect(rects(ATTENDANCE).filter((r) => r['fill'] !== '#ffffff')).toEqual([
      { x: '190', y: '5', width: '135', height: '18', fill: CHART_COLORS.attended },
      { x: '190', y: '33', width: '54', height: '18', fill: CHART_COLORS.noShow },
      { x: '190', y: '61', width: '81', height: '18', fill: CHART_COLORS.unmarked },
    ]);
    expect(texts(ATTENDANCE)).toEqual(['Attended', '5 (50%)', 'No-show', '2 (20%)', 'Not marked', '3 (30%)']);
  });

  it('says the figures in words and in the table', () => {
    expect(descOf(ATTENDANCE)).toBe('Of 10 participants: attended 5 (50%), no-show 2 (20%), not marked 3 (30%).');
    expect(tableRows(ATTENDANCE)).toEqual([
      ['Attended', '5', '50%'],
      ['No-show', '2', '20%'],
      ['Not marked', '3', '30%'],
    ]);
  });

  it('draws no bar for a count of 0', () => {
    const chart = attendanceChart({ attended: 0, noShow: 0, unmarked: 4 });
    expect(
      rects(chart)
        .filter((r) => r['fill'] !== '#ffffff')
        .map((r) => r['fill']),
    ).toEqual([CHART_COLORS.unmarked]);
    expect(descOf(chart)).toBe('Of 4 participants: attended 0 (0%), no-show 0 (0%), not marked 4 (100%).');
  });

  it('says there is nobody yet rather than 0%', () => {
    expect(attendanceChart({ attended: 0, noShow: 0, unmarked: 0 }).value).toBe(
      '<p class="chart-empty chart-attendance">No participants to check in yet.</p>',
    );
  });
});
