import { Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireOwned } from '../signup.policy.js';
import { SignupsRepository } from '../signups.repository.js';

/** A signup for an organizer-only act of another service (reminders): 403 on another organization's public signup, 404 on anything invisible. */
@Injectable()
export class GetOwnedSignupUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, id }: { owner: Owner; id: string }): Promise<Signup> {
    return requireOwned(await this.signups.findById(id), owner);
  }
}
