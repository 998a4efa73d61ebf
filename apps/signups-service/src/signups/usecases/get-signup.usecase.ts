import { Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireVisible } from '../signup.policy.js';
import type { Contents } from '../slot-item.js';
import { SignupsRepository } from '../signups.repository.js';
import { SlotsItemsRepository } from '../slots-items.repository.js';

export interface GetSignupQuery {
  owner: Owner;
  id: string;
}

/** One signup the caller owns, or another organization's published or closed one, with its slots and items. */
@Injectable()
export class GetSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
  ) {}

  async execute({ owner, id }: GetSignupQuery): Promise<{ signup: Signup; contents: Contents }> {
    const signup = requireVisible(await this.signups.findById(id), owner);
    return { signup, contents: await this.contents.contentsOf(signup.id) };
  }
}
