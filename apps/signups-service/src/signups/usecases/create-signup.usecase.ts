import { Injectable } from '@nestjs/common';
import { newId, newSlug, type CreateSignupDto } from '#libs/contracts';
import type { Owner, Signup } from '../signup.js';
import { SignupPresenter } from '../signup.presenter.js';
import { SignupsRepository } from '../signups.repository.js';

export interface CreateSignupCommand {
  owner: Owner;
  input: CreateSignupDto;
}

/** Six random base36 characters collide rarely; a few fresh draws make a failure practically impossible. */
const SLUG_ATTEMPTS = 5;

/** Creates a draft with a fresh slug and emits signup.created. */
@Injectable()
export class CreateSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
  ) {}

  async execute({ owner, input }: CreateSignupCommand): Promise<Signup> {
    const fields = {
      ...owner,
      id: newId(),
      title: input.title,
      description: input.description ?? null,
      eventDate: new Date(input.eventDate),
      location: input.location ?? null,
      maxParticipants: input.maxParticipants ?? null,
      requiresPhone: input.requiresPhone ?? false,
      signupCloseDate: input.signupCloseDate === undefined ? null : new Date(input.signupCloseDate),
    };
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const created = await this.signups.insert({ ...fields, slug: newSlug(input.title, 'signup') }, (s) => this.presenter.event('signup.created', s));
      if (created) return created;
    }
    throw new Error(`No free slug for "${input.title}" after ${SLUG_ATTEMPTS} attempts`);
  }
}
