import { Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireActionable } from '../signup.policy.js';
import { SignupPresenter } from '../signup.presenter.js';
import { SignupsRepository } from '../signups.repository.js';

export interface DeleteSignupCommand {
  owner: Owner;
  id: string;
}

/** Removes an owned signup and emits signup.deleted with the signup as it was. */
@Injectable()
export class DeleteSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
  ) {}

  async execute({ owner, id }: DeleteSignupCommand): Promise<Signup> {
    const deleted = await this.signups.delete(owner, id, (s) => this.presenter.event('signup.deleted', s));
    if (deleted) return deleted;
    requireActionable(await this.signups.findById(id), owner, 'delete');
    throw new Error(`Signup ${id} was neither deleted nor refused`);
  }
}
