import { Injectable } from '@nestjs/common';
import type { UpdateSignupDto } from '#libs/contracts';
import { Outbox } from '#libs/runtime';
import { questionsOf } from '../question.js';
import { QuestionsRepository } from '../questions.repository.js';
import type { Owner, Signup, SignupChanges } from '../signup.js';
import { requireActionable } from '../signup.policy.js';
import { SignupPresenter } from '../signup.presenter.js';
import { appliesFrom } from '../signup-state.js';
import { writeSignup } from '../signup-write.js';
import { SignupsRepository } from '../signups.repository.js';

export interface UpdateSignupCommand {
  owner: Owner;
  id: string;
  input: UpdateSignupDto;
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
    location: input.location,
    maxParticipants: input.maxParticipants,
    requiresPhone: input.requiresPhone,
    signupCloseDate: asDate(input.signupCloseDate),
  };
}

/**
 * Edits an owned signup that is not closed and emits signup.updated; an empty edit changes nothing.
 * Questions, when given, replace the signup's (questionsOf), in the transaction that wrote its row.
 */
@Injectable()
export class UpdateSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly questions: QuestionsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
  ) {}

  async execute({ owner, id, input }: UpdateSignupCommand): Promise<Signup> {
    const changes = changesOf(input);
    const { questions } = input;
    if (questions !== undefined || Object.values(changes).some((value) => value !== undefined)) {
      const updated = await writeSignup(
        this.outbox,
        async (db) => {
          const signup = await this.signups.update(db, owner, id, appliesFrom('update'), changes);
          if (!signup || questions === undefined) return signup;
          const asked = questionsOf(questions, await this.questions.idsOf(db, id));
          await this.questions.replace(db, id, asked);
          return { ...signup, questions: asked };
        },
        (s) => this.presenter.event('signup.updated', s),
      );
      if (updated) return updated;
    }
    return requireActionable(await this.signups.findById(id), owner, 'update');
  }
}
