import { Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireVisible } from '../signup.policy.js';
import { SignupsRepository } from '../signups.repository.js';
import type { Contents } from '../slot-item.js';

export interface GetSignupQuery {
  owner: Owner;
  id: string;
}

/** One signup the caller owns, or another organization's published or closed one, with its slots and items. */
@Injectable()
export class GetSignupUseCase {
  constructor(private readonly signups: SignupsRepository) {}

  async execute({ owner, id }: GetSignupQuery): Promise<{ signup: Signup; contents: Contents }> {
    const found = await this.signups.findWithContents(id);
    return { signup: requireVisible(found?.signup, owner), contents: found!.contents };
  }
}
