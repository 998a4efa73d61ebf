import { Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireVisible } from '../signup.policy.js';
import { SignupsRepository } from '../signups.repository.js';

export interface GetSignupQuery {
  owner: Owner;
  id: string;
}

/** One signup the caller owns, or another organization's published or closed one. */
@Injectable()
export class GetSignupUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, id }: GetSignupQuery): Promise<Signup> {
    return requireVisible(await this.signups.findById(id), owner);
  }
}
