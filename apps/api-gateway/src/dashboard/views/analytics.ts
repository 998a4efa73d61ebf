import type { AnalyticsView, SignupView } from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { attendanceChart, fillChart, registrationsChart } from '../charts.js';
import { dashboardPage, type Viewer } from './frame.js';

const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/** The signup's numbers: fill per slot and item, registrations over time, attendance after the event. */
export function analyticsPage(viewer: Viewer, signup: SignupView, analytics: AnalyticsView): SafeHtml {
  const gaps = analytics.gaps.slice(0, 5);
  return dashboardPage(
    viewer,
    'signups',
    `Numbers of ${signup.title}`,
    html`<p><a href="/app/signups/${signup.id}">${signup.title}</a></p>
<h1>Numbers</h1>
<dl class="cards">
<div class="card"><dt>Participants</dt><dd>${analytics.participantCount}</dd></div>
<div class="card"><dt>Places filled</dt><dd>${analytics.fillRate.capacity > 0 ? percent(analytics.fillRate.ratio) : '—'}</dd></div>
<div class="card"><dt>Waiting</dt><dd>${analytics.waitlist.waiting}</dd></div>
<div class="card"><dt>Attendance</dt><dd>${analytics.attendanceRate === null ? '—' : percent(analytics.attendanceRate)}</dd></div>
</dl>
<section aria-labelledby="fill-heading"><h2 id="fill-heading">Fill per slot and item</h2>${fillChart(analytics)}</section>
${
  gaps.length
    ? html`<section aria-labelledby="gaps-heading"><h2 id="gaps-heading">Still short</h2><ul>${gaps.map(
        (gap) => html`<li>${gap.label}: ${gap.shortBy} more needed</li>`,
      )}</ul></section>`
    : ''
}
<section aria-labelledby="registrations-heading"><h2 id="registrations-heading">Registrations over time</h2>${registrationsChart(
      analytics.registrationsByDay,
    )}</section>
<section aria-labelledby="attendance-heading"><h2 id="attendance-heading">Attendance</h2>${attendanceChart(analytics.attendance)}</section>`,
  );
}
