import { html, type SafeHtml } from '#libs/web';

/** A form's values as entered, and its errors by field name, to show it again beside what was wrong. */
export interface FormView {
  values: Record<string, string>;
  errors: Record<string, string[]>;
}

export const emptyFormView = (values: Record<string, string> = {}): FormView => ({ values, errors: {} });

interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'datetime-local' | 'email' | 'url';
  required?: boolean;
  hint?: string;
  min?: number;
  max?: number;
}

/** The error of a field, with the id its input names in aria-describedby. */
function fieldError(form: FormView, name: string): SafeHtml {
  const errors = form.errors[name];
  return errors?.length ? html`<p class="error" id="${name}-error">${errors.join(' ')}</p>` : html``;
}

function describedBy(form: FormView, options: { name: string; hint?: string }): string {
  return [options.hint && `${options.name}-hint`, form.errors[options.name]?.length && `${options.name}-error`].filter(Boolean).join(' ');
}

export function inputField(form: FormView, options: FieldOptions): SafeHtml {
  const { name } = options;
  const invalid = !!form.errors[name]?.length;
  const described = describedBy(form, options);
  return html`<div class="field">
<label for="${name}">${options.label}${options.required ? html` <span class="required">(required)</span>` : ''}</label>
${options.hint ? html`<span class="hint" id="${name}-hint">${options.hint}</span>` : ''}
${fieldError(form, name)}
<input id="${name}" name="${name}" type="${options.type ?? 'text'}" value="${form.values[name] ?? ''}"${options.required ? html` required` : ''}${
    options.min !== undefined ? html` min="${options.min}"` : ''
  }${options.max !== undefined ? html` max="${options.max}"` : ''}${invalid ? html` aria-invalid="true"` : ''}${
    described ? html` aria-describedby="${described}"` : ''
  }>
</div>`;
}

export function textareaField(form: FormView, options: Omit<FieldOptions, 'type' | 'min' | 'max'>): SafeHtml {
  const { name } = options;
  const described = describedBy(form, options);
  return html`<div class="field">
<label for="${name}">${options.label}</label>
${options.hint ? html`<span class="hint" id="${name}-hint">${options.hint}</span>` : ''}
${fieldError(form, name)}
<textarea id="${name}" name="${name}" rows="4"${form.errors[name]?.length ? html` aria-invalid="true"` : ''}${
    described ? html` aria-describedby="${described}"` : ''
  }>${form.values[name] ?? ''}</textarea>
</div>`;
}

export function checkboxField(form: FormView, options: { name: string; label: string; hint?: string }): SafeHtml {
  const { name } = options;
  return html`<div class="field field-inline">
<input id="${name}" name="${name}" type="checkbox" value="on"${form.values[name] === 'on' ? html` checked` : ''}${
    options.hint ? html` aria-describedby="${name}-hint"` : ''
  }>
<label for="${name}">${options.label}</label>
${options.hint ? html`<span class="hint" id="${name}-hint">${options.hint}</span>` : ''}
${fieldError(form, name)}
</div>`;
}

export function selectField(form: FormView, options: { name: string; label: string; choices: [value: string, label: string][] }): SafeHtml {
  const { name } = options;
  return html`<div class="field">
<label for="${name}">${options.label}</label>
${fieldError(form, name)}
<select id="${name}" name="${name}">${options.choices.map(
    ([value, label]) => html`<option value="${value}"${form.values[name] === value ? html` selected` : ''}>${label}</option>`,
  )}</select>
</div>`;
}

/** The form's errors in one list at its top, each linking to its field. */
export function errorSummary(form: FormView, labels: Record<string, string>): SafeHtml {
  const entries = Object.entries(form.errors).filter(([, errors]) => errors.length > 0);
  if (entries.length === 0) return html``;
  return html`<div class="notice" role="alert">
<p>Please correct the following:</p>
<ul>${entries.map(([name, errors]) => html`<li><a href="#${name}">${labels[name] ?? name}</a>: ${errors.join(' ')}</li>`)}</ul>
</div>`;
}
