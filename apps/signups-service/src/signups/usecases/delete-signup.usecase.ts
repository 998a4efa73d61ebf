import { Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import type { Owner, Signup } from '../signup.js';
import { requireActionable } from '../signup.policy.js';
import { SignupPresenter } from '../signup.presenter.js';
import { SignupPrecondition } from '../signup-precondition.js';
import { writeSignup } from '../signup-write.js';
import { SignupsRepository } from '../signups.repository.js';

export interface DeleteSignupCommand {
  owner: Owner;
  id: string;
  /** The request's If-Match, compared after the row is locked (SignupPrecondition). */
  ifMatch?: string;
}

/**
 * Removes an owned signup and emits signup.deleted with the signup as it was. A signup deleted
 * concurrently between the delete and the re-read is simply gone: not_found. With If-Match the
 * row is locked and its tag checked first, in the delete's transaction.
 */
@Injectable()
export class DeleteSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
    private readonly precondition: SignupPrecondition,
  ) {}

  async execute({ owner, id, ifMatch }: DeleteSignupCommand): Promise<Signup> {
    const deleted = await writeSignup(
      this.outbox,
      async (db) => {
        await this.precondition.require(db, owner, id, ifMatch);
        return this.signups.delete(db, owner, id);
      },
      (s) => this.presenter.event('signup.deleted', s),
    );
    if (deleted) return deleted;
    requireActionable(await this.signups.findById(id), owner, 'delete');
    throw new ProblemError('not_found', 'No signup with this id.');
  }
}
