import { Injectable } from '@nestjs/common';
import { DuplicateSignupDto, type HandlersOf, requireUuid, validateInput } from '#libs/contracts';
import { ownerOf } from '../signups/signup.js';
import { SignupPresenter } from '../signups/signup.presenter.js';
import { DuplicateSignupUseCase } from './duplicate-signup.usecase.js';
import { SeriesStatusUseCase } from './series-status.usecase.js';

/** signups.duplicate and the series acts: signups:write, owner only. */
@Injectable()
export class SeriesHandlers {
  constructor(
    private readonly presenter: SignupPresenter,
    private readonly duplicate: DuplicateSignupUseCase,
    private readonly seriesStatus: SeriesStatusUseCase,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, 'signups.duplicate' | 'signups.series.publish' | 'signups.series.close'> {
    return {
      'signups.duplicate': async ({ principal, id, input }) => {
        const valid = await validateInput(DuplicateSignupDto, input);
        const copies = await this.duplicate.execute({ owner: ownerOf(principal), id: requireUuid(id), input: valid });
        return { data: copies.map((s) => this.presenter.view(s)) };
      },
      'signups.series.publish': async ({ principal, seriesId }) => {
        const changed = await this.seriesStatus.execute({
          owner: ownerOf(principal),
          seriesId: requireUuid(seriesId, 'seriesId'),
          action: 'publish',
        });
        return { data: changed.map((s) => this.presenter.view(s)) };
      },
      'signups.series.close': async ({ principal, seriesId }) => {
        const changed = await this.seriesStatus.execute({
          owner: ownerOf(principal),
          seriesId: requireUuid(seriesId, 'seriesId'),
          action: 'close',
        });
        return { data: changed.map((s) => this.presenter.view(s)) };
      },
    };
  }
}
