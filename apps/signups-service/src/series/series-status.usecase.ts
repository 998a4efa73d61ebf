import { Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import type { Owner, Signup } from '../signups/signup.js';
import { SignupPresenter } from '../signups/signup.presenter.js';
import { SignupsRepository } from '../signups/signups.repository.js';

export interface SeriesStatusCommand {
  owner: Owner;
  seriesId: string;
  action: 'publish' | 'close';
}

/** What each act moves: publish every draft, close every published signup. */
const MOVES = {
  publish: { from: 'draft', to: 'published', event: 'signup.published' },
  close: { from: 'published', to: 'closed', event: 'signup.closed' },
} as const;

/**
 * Publishes or closes the signups of a series of the owner's organization and mode, in one
 * transaction, each with its event; the others (already there, or closed) are left as they are.
 * A series the owner has no signup in (another organization's, or none) is not found.
 */
@Injectable()
export class SeriesStatusUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly presenter: SignupPresenter,
    private readonly outbox: Outbox,
  ) {}

  execute({ owner, seriesId, action }: SeriesStatusCommand): Promise<Signup[]> {
    const { from, to, event } = MOVES[action];
    return this.outbox.transaction(async (tx) => {
      const changed = await this.signups.changeSeriesStatus(tx.manager, owner, seriesId, from, to);
      if (changed.length === 0 && !(await this.signups.hasSeries(tx.manager, owner, seriesId))) {
        throw new ProblemError('not_found', 'No series with this id.');
      }
      await tx.emitAll(changed.map((signup) => this.presenter.event(event, signup)));
      return changed;
    });
  }
}
