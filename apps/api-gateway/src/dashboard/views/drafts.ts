import { html, type SafeHtml } from '#libs/web';
import { checkboxField, errorSummary, type FormView, inputField, textareaField } from './fields.js';
import { csrfField, dashboardPage, timeZoneSelect, type Viewer } from './frame.js';
import { SIGNUP_FIELD_LABELS, signupBasics } from './signups.js';

/** The form name of a part of a drafted slot or item row. */
export const slotField = (index: number, part: 'keep' | 'title' | 'startTime' | 'endTime' | 'capacity'): string => `slot-${index}-${part}`;
export const itemField = (index: number, part: 'keep' | 'name' | 'quantityNeeded'): string => `item-${index}-${part}`;

/** How many drafted rows of a kind the form holds. */
export function rowsOf(values: Record<string, string>, field: (index: number) => string): number {
  let rows = 0;
  while (values[field(rows)] !== undefined) rows++;
  return rows;
}

export function describePage(viewer: Viewer, form: FormView): SafeHtml {
  return dashboardPage(
    viewer,
    'signups',
    'Draft a signup from a sentence',
    html`<h1>Draft a signup from a sentence</h1>
<p>Describe the event in your own words: what, when, where, and the slots or items you need. You review the draft before anything is created.</p>
${errorSummary(form, { description: 'Description' })}
<form method="post" action="/app/signups/draft" class="stack" novalidate>
${csrfField(viewer)}
${textareaField(form, {
  name: 'description',
  label: 'Description',
  hint: 'For example: "Potluck at the park on June 1 at 6pm, we need 3 salads, 2 desserts and 4 people to set up from 5pm."',
})}
<div class="field"><label for="timeZone">Time zone</label>${timeZoneSelect('timeZone', 'timeZone', form.values.timeZone ?? 'UTC')}</div>
<p><button type="submit" class="button">Draft it</button> <a href="/app/signups">Cancel</a></p>
</form>`,
  );
}

/** The draft to review: the signup's fields, and each drafted slot and item to keep or drop and to correct. */
export function reviewPage(viewer: Viewer, form: FormView): SafeHtml {
  const slots = rowsOf(form.values, (i) => slotField(i, 'title'));
  const items = rowsOf(form.values, (i) => itemField(i, 'name'));
  const slotRows = Array.from(
    { length: slots },
    (_, i) => html`<fieldset>
<legend>Slot ${i + 1}</legend>
${checkboxField(form, { name: slotField(i, 'keep'), label: 'Keep this slot' })}
${inputField(form, { name: slotField(i, 'title'), label: 'Slot' })}
<div class="grid-2">
${inputField(form, { name: slotField(i, 'startTime'), label: 'Starts', type: 'datetime-local' })}
${inputField(form, { name: slotField(i, 'endTime'), label: 'Ends', type: 'datetime-local' })}
</div>
${inputField(form, { name: slotField(i, 'capacity'), label: 'Places', type: 'number', min: 1 })}
</fieldset>`,
  );
  const itemRows = Array.from(
    { length: items },
    (_, i) => html`<fieldset>
<legend>Item ${i + 1}</legend>
${checkboxField(form, { name: itemField(i, 'keep'), label: 'Keep this item' })}
${inputField(form, { name: itemField(i, 'name'), label: 'Item' })}
${inputField(form, { name: itemField(i, 'quantityNeeded'), label: 'How many', type: 'number', min: 1 })}
</fieldset>`,
  );
  return dashboardPage(
    viewer,
    'signups',
    'Review the draft',
    html`<h1>Review the draft</h1>
<p>Nothing is created until you choose Create signup. Correct what the draft got wrong.</p>
${errorSummary(form, SIGNUP_FIELD_LABELS)}
<form method="post" action="/app/signups/draft/create" class="stack" novalidate>
${csrfField(viewer)}
${signupBasics(form)}
<h2>Time slots</h2>
${slots ? slotRows : html`<p>The draft has no time slots.</p>`}
<h2>Items to bring</h2>
${items ? itemRows : html`<p>The draft has no items.</p>`}
<p><button type="submit" class="button">Create signup</button> <a href="/app/signups/draft">Start again</a></p>
</form>`,
  );
}
