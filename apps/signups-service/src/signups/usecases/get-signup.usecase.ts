import { Inject, Injectable } from '@nestjs/common';
import type { Owner, Signup } from '../signup.js';
import { requireVisible } from '../signup.policy.js';
import { PUBLIC_ORIGIN } from '../signup.presenter.js';
import { SignupsRepository } from '../signups.repository.js';
import type { Contents } from '../slot-item.js';

export interface GetSignupQuery {
  owner: Owner;
  id: string;
}

/** One signup the caller owns, or another organization's published or closed one, with its slots and items. */
@Injectable()
export class GetSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  async execute({ owner, id }: GetSignupQuery): Promise<{ signup: Signup; contents: Contents }> {
    const found = await this.signups.findWithContents(id);
    return { signup: requireVisible(found?.signup, owner), contents: found!.contents };
  }

  /**
   * The same signup's detail view as Postgres wrote it, in one statement: the hot read. null
   * when only JavaScript can write one of its values (then execute's answer is presented).
   */
  async json({ owner, id }: GetSignupQuery): Promise<string | null> {
    return requireVisible(await this.signups.findDetailJson(id, this.publicOrigin), owner).json;
  }
}
