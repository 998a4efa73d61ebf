import { type JsonSql, jsonSql as j } from '#libs/persistence';
import { SIGNUPS_SCHEMA } from '../schema.js';
import { TABLES } from './slots-items.sql.js';

/**
 * The contract's views of a signup as Postgres writes them: the text JSON.stringify makes of
 * SignupPresenter.view (and .detail, with slots and items as slotView and itemView), member for
 * member, so a read answers it as it is (see jsonSql; SQL NULL where only JavaScript can write a
 * value). `s` is the signups row; `origin` the SQL of the public origin (a parameter).
 */
export function signupViewJsonSql(origin: string, withContents: boolean): JsonSql {
  const view: Record<string, JsonSql> = {
    id: j.string('s.id'),
    slug: j.string('s.slug'),
    title: j.string('s.title'),
    description: j.string('s.description'),
    eventDate: j.timestamp('s.event_date'),
    timeZone: j.string('s.time_zone'),
    location: j.string('s.location'),
    requiresPhone: j.scalar('s.requires_phone'),
    signupCloseDate: j.timestamp('s.signup_close_date'),
    waitlist: j.object({
      enabled: j.scalar('s.waitlist_enabled'),
      mode: j.string('s.waitlist_mode'),
      offerMinutes: j.scalar('s.waitlist_offer_minutes'),
    }),
    questions: QUESTIONS,
    publicUrl: j.string(`${origin} || '/s/' || s.slug`),
    livemode: j.scalar('s.livemode'),
    status: j.string('s.status'),
    maxParticipants: j.scalar('s.max_participants'),
    reminderHoursBefore: j.scalar('s.reminder_hours_before'),
    seriesId: j.string('s.series_id'),
    organizationId: j.string('s.organization_id'),
    participantCount: j.scalar('s.participant_count'),
    createdAt: j.timestamp('s.created_at'),
    updatedAt: j.timestamp('s.updated_at'),
    publishedAt: j.timestamp('s.published_at'),
    closedAt: j.timestamp('s.closed_at'),
  };
  return j.object(withContents ? { ...view, slots: SLOTS, items: ITEMS } : view);
}

const QUESTIONS = j.array(
  j.object({
    id: j.string('q.id'),
    type: j.string('q.type'),
    label: j.string('q.label'),
    required: j.scalar('q.required'),
    options: j.stringArray('q.options'),
    min: j.number('q.min'),
    max: j.number('q.max'),
  }),
  `FROM "${SIGNUPS_SCHEMA}"."questions" q WHERE q.signup_id = s.id AND q.removed_at IS NULL`,
  ['q.position'],
);

const SLOTS = j.array(
  j.object({
    id: j.string('c.id'),
    title: j.string('c.title'),
    description: j.string('c.description'),
    startTime: j.timestamp('c.start_time'),
    endTime: j.timestamp('c.end_time'),
    capacity: j.scalar('c.capacity'),
    taken: j.scalar('c.taken'),
    remaining: j.scalar('c.capacity - c.taken'),
    updatedAt: j.timestamp('c.updated_at'),
    livemode: j.scalar('s.livemode'),
  }),
  `FROM ${TABLES.slot.table} c WHERE c.signup_id = s.id`,
  ['c.created_at', 'c.id'],
);

const ITEMS = j.array(
  j.object({
    id: j.string('c.id'),
    name: j.string('c.name'),
    notes: j.string('c.notes'),
    quantityNeeded: j.scalar('c.quantity_needed'),
    quantityClaimed: j.scalar('c.quantity_claimed'),
    remaining: j.scalar('c.quantity_needed - c.quantity_claimed'),
    livemode: j.scalar('s.livemode'),
  }),
  `FROM ${TABLES.item.table} c WHERE c.signup_id = s.id`,
  ['c.created_at', 'c.id'],
);
