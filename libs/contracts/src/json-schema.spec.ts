import { ApiProperty } from '@nestjs/swagger';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { jsonSchemaOf } from './json-schema.js';
import { RegistrationDto } from './participants.js';
import { SignupView, UpdateSignupDto } from './signups.js';
import { SlotView } from './slots-items.js';

class WithNullableNested {
  @ApiProperty({ type: SlotView, nullable: true, description: 'The next slot, if any.' }) next!: SlotView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) at!: string | null;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

describe('jsonSchemaOf', () => {
  it('describes a DTO as its decorators do: types, bounds, formats, required fields and examples', () => {
    const schema = jsonSchemaOf(RegistrationDto);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['name', 'email', 'selections'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200, examples: ['Ana Lima'] },
        email: { type: 'string', format: 'email', maxLength: 320 },
        selections: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/SelectionDto' } },
      },
      $defs: {
        SelectionDto: {
          type: 'object',
          required: ['type', 'id'],
          properties: { type: { enum: ['slot', 'item'] }, id: { format: 'uuid' } },
        },
      },
    });
    expect(JSON.stringify(schema)).not.toMatch(/components|"nullable"|"example"/);
  });

  it('turns nullable fields into a null type', () => {
    const { properties } = jsonSchemaOf(UpdateSignupDto) as { properties: Record<string, Record<string, unknown>> };
    expect(properties.description!.type).toEqual(['string', 'null']);
    expect(properties.maxParticipants!.type).toEqual(['integer', 'null']);
    expect(properties.title!.type).toBe('string');
  });

  it('admits null for a nullable nested class, and still checks the class', () => {
    const schema = jsonSchemaOf(WithNullableNested);
    expect((schema as { properties: Record<string, unknown> }).properties.next).toMatchObject({
      description: 'The next slot, if any.',
      anyOf: [expect.any(Object), { type: 'null' }],
    });
    const validate = ajv.compile(schema);
    expect(validate({ next: null, at: null })).toBe(true);
    expect(validate({ next: null, at: '2026-11-22T10:00:00Z' })).toBe(true);
    expect(validate({ next: { id: 'x' }, at: null })).toBe(false);
  });

  it('closes every object of an input when asked, so unknown fields are refused as the validator refuses them', () => {
    const closed = ajv.compile(jsonSchemaOf(RegistrationDto, { closed: true }));
    const person = { name: 'Ana', email: 'ana@example.com', selections: [{ type: 'slot', id: '0b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a55' }] };
    expect(closed(person)).toBe(true);
    expect(closed({ ...person, nickname: 'A' })).toBe(false);
    expect(closed({ ...person, selections: [{ ...person.selections[0], extra: 1 }] })).toBe(false);
    expect(ajv.compile(jsonSchemaOf(RegistrationDto))({ ...person, nickname: 'A' })).toBe(true);
  });

  it('validates what a view really holds, nested views and nulls included', () => {
    const validate = ajv.compile(jsonSchemaOf(SignupView));
    const signup = {
      id: '0b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a55',
      slug: 'potluck-x1',
      title: 'Potluck',
      description: null,
      status: 'published',
      eventDate: '2026-12-24T18:00:00.000Z',
      timeZone: 'America/New_York',
      location: null,
      maxParticipants: null,
      requiresPhone: false,
      signupCloseDate: null,
      reminderHoursBefore: 24,
      waitlist: { enabled: true, mode: 'offer', offerMinutes: 60 },
      seriesId: null,
      organizationId: 'org_1',
      participantCount: 0,
      publicUrl: 'http://localhost:3000/s/potluck-x1',
      livemode: false,
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      publishedAt: null,
      closedAt: null,
      questions: [
        { id: '1b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a56', type: 'number', label: 'Age', required: false, options: null, min: 0, max: null },
      ],
      slots: [
        {
          id: '1b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a55',
          title: 'Setup',
          description: null,
          startTime: null,
          endTime: null,
          capacity: 2,
          taken: 0,
          remaining: 2,
          updatedAt: '2026-12-01T10:00:00.000Z',
          livemode: false,
        },
      ],
      items: [],
    };
    expect(validate(signup)).toBe(true);
    expect(validate({ ...signup, status: 'archived' })).toBe(false);
    expect(validate({ ...signup, waitlist: { ...signup.waitlist, mode: 'lottery' } })).toBe(false);
    expect(validate({ ...signup, slots: [{ ...signup.slots[0], capacity: 'two' }] })).toBe(false);
  });
});
