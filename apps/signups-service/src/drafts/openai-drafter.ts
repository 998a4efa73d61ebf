import { type SignupDraft, SignupDraftDto, validateInput } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { DraftContext, Drafter } from './drafter.js';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

/** The answer's JSON schema (strict mode: every property listed, absent ones null). */
const DRAFT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description', 'eventDate', 'location', 'items', 'slots'],
  properties: {
    title: { type: 'string' },
    description: nullable('string'),
    eventDate: nullable('string', { description: 'ISO 8601 instant in UTC' }),
    location: nullable('string'),
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'quantityNeeded', 'notes'],
        properties: { name: { type: 'string' }, quantityNeeded: nullable('integer'), notes: nullable('string') },
      },
    },
    slots: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'startTime', 'endTime', 'capacity'],
        properties: {
          title: { type: 'string' },
          startTime: nullable('string'),
          endTime: nullable('string'),
          capacity: nullable('integer'),
        },
      },
    },
  },
} as const;

const INSTRUCTIONS =
  "You draft signup sheets (potlucks, volunteer shifts, fundraisers) from an organizer's description. " +
  'Answer with the JSON schema only. title: short and human. eventDate, startTime, endTime: ISO 8601 instants in UTC, resolved against the reference date given; ' +
  'dates and times written in the description are wall-clock times in the time zone given, unless it names another. ' +
  'items: things people bring, with quantityNeeded when stated. slots: time slots or shifts, with capacity when stated. Use null for anything not stated; never invent.';

/** null → absent, recursively: the strict schema's way of saying "not stated". */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/** AbortSignal.timeout fired (a DOMException, not always an instance of this realm's Error). */
function isTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'TimeoutError';
}

function upstream(detail: string, status: 502 | 504 = 502): ProblemError {
  return new ProblemError('upstream_unavailable', detail, { status });
}

/**
 * An OpenAI-compatible chat-completions call with a JSON schema for the answer. The answer is
 * validated like a request body before use: anything else is 502, a timeout 504.
 */
export class OpenAiDrafter implements Drafter {
  constructor(private readonly options: OpenAiOptions) {}

  async draft(description: string, context: DraftContext): Promise<SignupDraft> {
    const content = await this.complete(description, context);
    let parsed: unknown;
    try {
      parsed = withoutNulls(JSON.parse(content));
    } catch {
      throw upstream('The AI provider did not answer with JSON.');
    }
    try {
      return await validateInput(SignupDraftDto, parsed, 'draft');
    } catch {
      throw upstream('The AI provider answered a draft that is not valid.');
    }
  }

  private async complete(description: string, { referenceDate, timeZone }: DraftContext): Promise<string> {
    let res: Response | undefined;
    let body: { choices?: { message?: { content?: unknown } }[] };
    try {
      res = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.options.model,
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: `Reference date: ${referenceDate.toISOString()}\nTime zone: ${timeZone}\n\n${description}` },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'signup_draft', strict: true, schema: DRAFT_SCHEMA } },
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      body = (await res.json()) as typeof body;
    } catch (err) {
      if (isTimeout(err)) throw upstream(`The AI provider did not answer within ${this.options.timeoutMs} ms.`, 504);
      throw upstream(res ? `The AI provider answered ${res.status} without JSON.` : 'The AI provider could not be reached.');
    }
    if (!res.ok) throw upstream(`The AI provider answered ${res.status}.`);
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw upstream('The AI provider answered without a draft.');
    return content;
  }
}
