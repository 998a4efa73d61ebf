import { Injectable } from '@nestjs/common';
import type { UpdateSignupDto } from '#libs/contracts';
import { Outbox } from '#libs/runtime';
import { StockLedger } from '../../waitlist/waitlist.js';
import { Waitlists } from '../../waitlist/waitlists.js';
import { questionsOf } from '../question.js';
import { QuestionsRepository } from '../questions.repository.js';
import type { Owner, Signup, SignupChanges } from '../signup.js';
import { requireActionable } from '../signup.policy.js';
import { SignupPresenter } from '../signup.presenter.js';
import { SignupPrecondition } from '../signup-precondition.js';
import { appliesFrom } from '../signup-state.js';
import { SignupsRepository } from '../signups.repository.js';
import type { Contents } from '../slot-item.js';

export interface UpdateSignupCommand {
  owner: Owner;
  id: string;
  input: UpdateSignupDto;
  /** The request's If-Match, compared after the row is locked (SignupPrecondition). */
  ifMatch?: string;
}

function asDate<T extends null | undefined>(value: string | T): Date | T {
  return typeof value === 'string' ? new Date(value) : value;
}

/** The validated PATCH body as domain changes: dates parsed, null kept (it clears), absent left out. */
export function changesOf(input: UpdateSignupDto): SignupChanges {
  return {
    title: input.title,
    description: input.description,
    eventDate: asDate(input.eventDate),
    timeZone: input.timeZone,
    location: input.location,
    maxParticipants: input.maxParticipants,
    requiresPhone: input.requiresPhone,
    signupCloseDate: asDate(input.signupCloseDate),
    reminderHoursBefore: input.reminderHoursBefore,
    waitlist: input.waitlist && Object.values(input.waitlist).some((value) => value !== undefined) ? { ...input.waitlist } : undefined,
  };
}

/**
 * Edits an owned signup that is not closed and emits signup.updated; an empty edit changes
 * nothing. Questions, when given, replace the signup's (questionsOf), in the transaction that
 * wrote its row. Its UPDATE locks the row, as every write of the signup's places does; an edit
 * that raises or lifts maxParticipants gives the new places to the first in the signup's own
 * line (Waitlists.fill), in the same transaction. With If-Match the row is locked and the tag
 * checked first, even for an empty edit. Answers the signup as read in that transaction, with its
 * slots and items (the form signups.get answers, so its ETag is the one a GET would give).
 */
@Injectable()
export class UpdateSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly questions: QuestionsRepository,
    private readonly presenter: SignupPresenter,
    private readonly waitlists: Waitlists,
    private readonly outbox: Outbox,
    private readonly precondition: SignupPrecondition,
  ) {}

  async execute({ owner, id, input, ifMatch }: UpdateSignupCommand): Promise<{ signup: Signup; contents: Contents }> {
    const changes = changesOf(input);
    const { questions } = input;
    const edits = questions !== undefined || Object.values(changes).some((value) => value !== undefined);
    if (ifMatch !== undefined || edits) {
      const updated = await this.outbox.transaction(async (tx) => {
        await this.precondition.require(tx.manager, owner, id, ifMatch);
        if (!edits) return undefined;
        const written = await this.signups.update(tx.manager, owner, id, appliesFrom('update'), changes);
        if (!written) return undefined;
        let signup = written;
        if (questions !== undefined) {
          const asked = questionsOf(questions, await this.questions.typesOf(tx.manager, id));
          await this.questions.replace(tx.manager, id, asked);
          signup = { ...signup, questions: asked };
        }
        const promotions = await this.waitlists.fill(tx.manager, signup, [{ kind: 'signup', targetId: signup.id }], new StockLedger());
        await tx.emitAll([this.presenter.event('signup.updated', signup), ...promotions]);
        return await this.signups.findWithContents(signup.id, tx.manager);
      });
      if (updated) return updated;
    }
    const found = await this.signups.findWithContents(id);
    return { signup: requireActionable(found?.signup, owner, 'update'), contents: found!.contents };
  }
}
