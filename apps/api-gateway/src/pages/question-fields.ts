import { type QuestionView, TEXT_ANSWER_MAX_LENGTH } from '#libs/contracts';
import { html, type SafeHtml } from '#libs/web';
import { questionField } from './page-answers.js';
import type { FormState } from './page-form.js';

const REQUIRED_MARK = html` <span class="required">(required)</span>`;

function errorOf(field: string, errors: string[] | undefined): SafeHtml {
  return errors?.length ? html`<p class="error" id="${field}-error">${errors.join(' ')}</p>` : html``;
}

const invalid = (errors: string[] | undefined): SafeHtml | '' => (errors?.length ? html` aria-invalid="true"` : '');
const describedBy = (field: string, errors: string[] | undefined): SafeHtml | '' =>
  errors?.length ? html` aria-describedby="${field}-error"` : '';

/** A group of radios or checkboxes: a fieldset named by the question, the error under its legend. */
function optionGroup(
  form: FormState,
  question: QuestionView,
  kind: 'radio' | 'checkbox',
  options: { value: string; label: string }[],
  isChecked: (value: string) => boolean,
): SafeHtml {
  const field = questionField(question);
  const errors = form.errors[field];
  const required = question.required && kind === 'radio' ? html` required` : '';
  return html`<fieldset id="${field}"${describedBy(field, errors)}>
<legend>${question.label}${question.required ? REQUIRED_MARK : ''}</legend>
${errorOf(field, errors)}
${options.map(
  (option, i) =>
    html`<div class="option"><input type="${kind}" id="${field}-${i}" name="${field}" value="${option.value}"${
      isChecked(option.value) ? html` checked` : ''
    }${required}${invalid(errors)}><label for="${field}-${i}">${option.label}</label></div>`,
)}
</fieldset>`;
}

/** One question of a signup's form, with the control its type takes, labelled, its error beside it. */
function questionInput(form: FormState, question: QuestionView): SafeHtml {
  const field = questionField(question);
  const errors = form.errors[field];
  const value = form.values[field] ?? '';
  const label = html`<label for="${field}">${question.label}${question.required ? REQUIRED_MARK : ''}</label>`;
  const attributes = html`id="${field}" name="${field}"${question.required ? html` required` : ''}${describedBy(field, errors)}${invalid(errors)}`;
  switch (question.type) {
    case 'short_text':
      return html`<div class="field">${label}${errorOf(field, errors)}<input type="text" ${attributes} maxlength="${TEXT_ANSWER_MAX_LENGTH.short_text}" value="${value}"></div>`;
    case 'long_text':
      return html`<div class="field">${label}${errorOf(field, errors)}<textarea ${attributes} rows="4" maxlength="${TEXT_ANSWER_MAX_LENGTH.long_text}">${value}</textarea></div>`;
    case 'number':
      return html`<div class="field">${label}${errorOf(field, errors)}<input type="number" ${attributes} step="any"${
        question.min !== null ? html` min="${question.min}"` : ''
      }${question.max !== null ? html` max="${question.max}"` : ''} value="${value}"></div>`;
    case 'single_choice':
      return optionGroup(
        form,
        question,
        'radio',
        (question.options ?? []).map((o) => ({ value: o, label: o })),
        (o) => value === o,
      );
    case 'multiple_choice':
      return optionGroup(
        form,
        question,
        'checkbox',
        (question.options ?? []).map((o) => ({ value: o, label: o })),
        (o) => (form.checked[field] ?? []).includes(o),
      );
    case 'yes_no':
      return optionGroup(
        form,
        question,
        'radio',
        [
          { value: 'yes', label: 'Yes' },
          { value: 'no', label: 'No' },
        ],
        (o) => value === o,
      );
  }
}

/** The signup's questions, in order, under their own heading (nothing when it asks none). */
export function questionFieldset(form: FormState, questions: QuestionView[]): SafeHtml {
  if (questions.length === 0) return html``;
  return html`<h3>Questions</h3>
${questions.map((q) => questionInput(form, q))}`;
}
