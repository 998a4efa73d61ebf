import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DuplicateSignupDto, type DuplicationRequest, duplicationRequestOf, MAX_SERIES_COPIES, newId, newSlug } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import type { Question } from '../signups/question.js';
import { QuestionsRepository } from '../signups/questions.repository.js';
import type { Owner, Signup } from '../signups/signup.js';
import { requireOwned } from '../signups/signup.policy.js';
import { SignupPresenter } from '../signups/signup.presenter.js';
import { byEventDate, SignupsRepository } from '../signups/signups.repository.js';
import type { Contents } from '../signups/slot-item.js';
import { SlotsItemsRepository } from '../signups/slots-items.repository.js';
import { dailyCeilingExceeded, SIGNUPS_PER_DAY, SLUG_ATTEMPTS } from '../signups/usecases/create-signup.usecase.js';
import { occurrences } from './recurrence.js';

export interface DuplicateSignupCommand {
  owner: Owner;
  id: string;
  input: DuplicateSignupDto;
}

const shifted = (date: Date | null, offset: number): Date | null => date && new Date(date.getTime() + offset);

/**
 * Copies an owned signup (any status) at other event dates, as drafts with its settings,
 * questions, slots and items and no participants, each with a new slug: a copy's times (its
 * signupCloseDate, its slots') move by the offset between the signup's event and the copy's. The
 * signup and its copies share a series: the signup's own, or a new one it joins (signup.updated).
 * Every date must be in the future, and a call makes at most MAX_SERIES_COPIES copies. All the
 * copies are created in one transaction, each counted against the organization's daily cap and
 * emitting signup.created: past the cap none is (429).
 */
@Injectable()
export class DuplicateSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly questions: QuestionsRepository,
    private readonly slotsItems: SlotsItemsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
    @Inject(SIGNUPS_PER_DAY) private readonly dailyCap: number,
  ) {}

  async execute({ owner, id, input }: DuplicateSignupCommand): Promise<Signup[]> {
    const request = duplicationRequestOf(input);
    requireOwned(await this.signups.findById(id), owner);
    return this.outbox.transaction(async (tx) => {
      const db = tx.manager;
      const seriesId = newId();
      const joined = requireOwned(await this.signups.joinSeries(db, owner, id, seriesId), owner);
      // Read from the locked row: an edit of its event date or zone cannot slip between the dates and the copies.
      const dates = this.datesOf(request, joined, new Date());
      const contents = await this.slotsItems.contentsOf(id, db);
      const copies: Signup[] = [];
      for (const date of dates) copies.push(await this.copy(db, joined, contents, date));
      await tx.emitAll([
        ...(joined.seriesId === seriesId ? [this.presenter.event('signup.updated', joined)] : []),
        ...copies.map((copy) => this.presenter.event('signup.created', copy)),
      ]);
      return copies.sort(byEventDate);
    });
  }

  /** The event dates asked for, each in the future; a rule's, from the signup's event on, in its time zone. */
  private datesOf(request: DuplicationRequest, source: Signup, now: Date): Date[] {
    if (request.kind === 'dates') {
      const dates = request.dates.map((date) => new Date(date));
      if (dates.some((date) => date <= now)) throw ProblemError.validation([{ path: request.path, message: 'Must be in the future' }]);
      return dates;
    }
    const dates = occurrences(source.eventDate, source.timeZone, request.rule, MAX_SERIES_COPIES + 1);
    if (dates.length > MAX_SERIES_COPIES) {
      throw ProblemError.validation([
        { path: 'recurrence.until', message: `Makes more than ${MAX_SERIES_COPIES} signups: end the rule sooner` },
      ]);
    }
    if (dates.length === 0) throw ProblemError.validation([{ path: 'recurrence.until', message: "Comes before the rule's first date" }]);
    if (dates[0]! <= now) {
      throw ProblemError.validation([
        {
          path: 'recurrence',
          message: `Its first date (${dates[0]!.toISOString()}) is in the past: duplicate a later signup, or give eventDates`,
        },
      ]);
    }
    return dates;
  }

  /** One copy at `eventDate`, with new ids for itself, its questions, slots and items; counted against the daily cap. */
  private async copy(db: EntityManager, source: Signup, contents: Contents, eventDate: Date): Promise<Signup> {
    const offset = eventDate.getTime() - source.eventDate.getTime();
    const fields = {
      organizationId: source.organizationId,
      livemode: source.livemode,
      title: source.title,
      description: source.description,
      eventDate,
      timeZone: source.timeZone,
      location: source.location,
      maxParticipants: source.maxParticipants,
      requiresPhone: source.requiresPhone,
      signupCloseDate: shifted(source.signupCloseDate, offset),
      reminderHoursBefore: source.reminderHoursBefore,
      waitlist: { ...source.waitlist },
      seriesId: source.seriesId,
    };
    let inserted: Signup | undefined;
    for (let attempt = 0; !inserted && attempt < SLUG_ATTEMPTS; attempt++) {
      inserted = await this.signups.insert(db, { ...fields, id: newId(), slug: newSlug(source.title, 'signup') });
    }
    if (!inserted) throw new Error(`No free slug for "${source.title}" after ${SLUG_ATTEMPTS} attempts`);
    const questions: Question[] = source.questions.map((question) => ({ ...question, id: newId() }));
    await this.questions.replace(db, inserted.id, questions);
    const where = {
      owner: { organizationId: source.organizationId, livemode: source.livemode },
      signupId: inserted.id,
      statuses: ['draft' as const],
    };
    if (contents.slots.length > 0) {
      const slots = contents.slots.map((slot) => ({
        id: newId(),
        title: slot.title,
        description: slot.description,
        startTime: shifted(slot.startTime, offset),
        endTime: shifted(slot.endTime, offset),
        capacity: slot.capacity,
      }));
      await this.slotsItems.insertSlots(db, where, slots);
    }
    if (contents.items.length > 0) {
      const items = contents.items.map((item) => ({
        id: newId(),
        name: item.name,
        notes: item.notes,
        quantityNeeded: item.quantityNeeded,
      }));
      await this.slotsItems.insertItems(db, where, items);
    }
    if (!(await this.signups.countCreation(db, source.organizationId, this.dailyCap))) throw dailyCeilingExceeded(this.dailyCap);
    return { ...inserted, questions };
  }
}
