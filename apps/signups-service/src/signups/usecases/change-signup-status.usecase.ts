import { Injectable } from '@nestjs/common';
import { Outbox } from '#libs/runtime';
import type { Owner, Signup } from '../signup.js';
import { requireActionable } from '../signup.policy.js';
import { SignupPresenter } from '../signup.presenter.js';
import { appliesFrom, type StatusChange, TARGET_STATUS } from '../signup-state.js';
import { writeSignup } from '../signup-write.js';
import { SignupsRepository } from '../signups.repository.js';

export interface ChangeSignupStatusCommand {
  owner: Owner;
  id: string;
  action: StatusChange;
}

const EVENT = { publish: 'signup.published', close: 'signup.closed' } as const;

/**
 * Publishes or closes an owned signup. The conditional write applies at most once however many
 * calls race; the others find the signup already moved (no-op, no event) or in a status the
 * state table refuses (conflict).
 */
@Injectable()
export class ChangeSignupStatusUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
  ) {}

  async execute({ owner, id, action }: ChangeSignupStatusCommand): Promise<Signup> {
    const changed = await writeSignup(
      this.outbox,
      (db) => this.signups.changeStatus(db, owner, id, appliesFrom(action), TARGET_STATUS[action]),
      (s) => this.presenter.event(EVENT[action], s),
    );
    return changed ?? requireActionable(await this.signups.findById(id), owner, action);
  }
}
