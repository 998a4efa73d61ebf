import { Inject, Injectable } from '@nestjs/common';
import { type CreateSignupDto, newId, newSlug, OFFER_MINUTES, type Principal, REMINDER_HOURS_BEFORE, utcDay } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import { OrganizationTimeZone } from '../../common/organization-time-zone.js';
import { type Question, questionsOf } from '../question.js';
import { QuestionsRepository } from '../questions.repository.js';
import { ownerOf, type Signup } from '../signup.js';
import { SignupPresenter } from '../signup.presenter.js';
import { type NewSignup, SignupsRepository } from '../signups.repository.js';

/** Injection token of SIGNUPS_PER_DAY. */
export const SIGNUPS_PER_DAY = Symbol('SIGNUPS_PER_DAY');

export interface CreateSignupCommand {
  principal: Principal;
  input: CreateSignupDto;
}

/** The refusal of a creation past the organization's daily cap, with Retry-After until the next UTC day. */
export function dailyCeilingExceeded(dailyCap: number): ProblemError {
  return new ProblemError(
    'daily_ceiling_exceeded',
    `This organization created its ${dailyCap} signups for today (UTC). Retry the next UTC day.`,
    {
      headers: { 'retry-after': String(utcDay().secondsLeft) },
    },
  );
}

/** Six random base36 characters collide rarely; a few fresh draws make a failure practically impossible. */
export const SLUG_ATTEMPTS = 5;

/**
 * Creates a draft with a fresh slug and its questions, and emits signup.created, within the organization's daily
 * cap (SIGNUPS_PER_DAY per UTC day across all its credentials and both modes), counted in the
 * transaction that inserts it: a creation that fails never counts. A signup given no time zone
 * takes its organization's as it is now (asked of the auth-server before the transaction), and
 * keeps it: a later change of the organization's zone leaves it alone.
 */
@Injectable()
export class CreateSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly questions: QuestionsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
    private readonly organizationTimeZone: OrganizationTimeZone,
    @Inject(SIGNUPS_PER_DAY) private readonly dailyCap: number,
  ) {}

  async execute({ principal, input }: CreateSignupCommand): Promise<Signup> {
    const questions = questionsOf(input.questions ?? [], new Map());
    const fields = {
      ...ownerOf(principal),
      id: newId(),
      title: input.title,
      description: input.description ?? null,
      eventDate: new Date(input.eventDate),
      timeZone: input.timeZone ?? (await this.organizationTimeZone.of(principal)),
      location: input.location ?? null,
      maxParticipants: input.maxParticipants ?? null,
      requiresPhone: input.requiresPhone ?? false,
      signupCloseDate: input.signupCloseDate === undefined ? null : new Date(input.signupCloseDate),
      reminderHoursBefore: input.reminderHoursBefore ?? REMINDER_HOURS_BEFORE.default,
      waitlist: {
        enabled: input.waitlist?.enabled ?? false,
        mode: input.waitlist?.mode ?? 'auto',
        offerMinutes: input.waitlist?.offerMinutes ?? OFFER_MINUTES.default,
      },
    };
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const created = await this.insert({ ...fields, slug: newSlug(input.title, 'signup') }, questions);
      if (created) return created;
    }
    throw new Error(`No free slug for "${input.title}" after ${SLUG_ATTEMPTS} attempts`);
  }

  /** Inserts the signup with its questions and counts it, in one transaction; undefined when its slug is already taken (nothing counted). */
  private insert(fields: NewSignup, questions: Question[]): Promise<Signup | undefined> {
    return this.outbox.transaction(async (tx) => {
      const inserted = await this.signups.insert(tx.manager, fields);
      if (!inserted) return undefined;
      await this.questions.replace(tx.manager, inserted.id, questions);
      const created = { ...inserted, questions };
      if (!(await this.signups.countCreation(tx.manager, created.organizationId, this.dailyCap))) {
        throw dailyCeilingExceeded(this.dailyCap);
      }
      await tx.emitAll([this.presenter.event('signup.created', created)]);
      return created;
    });
  }
}
