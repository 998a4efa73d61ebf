import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { requireIfMatch } from '#libs/contracts';
import type { Owner } from './signup.js';
import { SignupPresenter } from './signup.presenter.js';
import { SignupsRepository } from './signups.repository.js';

/**
 * If-Match on a write of a signup (or of its slots and items, which its representation holds):
 * locks the signup's row FOR NO KEY UPDATE in the write's transaction, which every write of the
 * signup, its places and its contents waits for, then compares the tag of the signup as
 * `signups.get` answers it (SignupPresenter.detail). Of two writes sent with the same tag, the
 * second sees the first's result and gets 412 precondition_failed. A signup the caller does not
 * own is left to the write, which answers 404 or 403 as without the header.
 */
@Injectable()
export class SignupPrecondition {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
  ) {}

  async require(db: EntityManager, owner: Owner, id: string, ifMatch: string | undefined): Promise<void> {
    if (ifMatch === undefined) return;
    const locked = await this.signups.lock(db, id, 'update');
    if (!locked || locked.organizationId !== owner.organizationId || locked.livemode !== owner.livemode) return;
    const current = await this.signups.findWithContents(id, db);
    requireIfMatch(ifMatch, this.presenter.detail(current!.signup, current!.contents));
  }
}
