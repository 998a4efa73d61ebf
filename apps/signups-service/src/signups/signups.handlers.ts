import { Injectable } from '@nestjs/common';
import {
  CreateSignupDto,
  type HandlersOf,
  JsonAnswer,
  ListSignupsQueryDto,
  pageText,
  requireUuid,
  updatedSinceOf,
  UpdateSignupDto,
  validateInput,
} from '#libs/contracts';
import { ownerOf } from './signup.js';
import { SignupPresenter } from './signup.presenter.js';
import { ChangeSignupStatusUseCase } from './usecases/change-signup-status.usecase.js';
import { CreateSignupUseCase } from './usecases/create-signup.usecase.js';
import { DeleteSignupUseCase } from './usecases/delete-signup.usecase.js';
import { GetOwnedSignupUseCase } from './usecases/get-owned-signup.usecase.js';
import { GetPublicSignupUseCase } from './usecases/get-public-signup.usecase.js';
import { GetSignupUseCase } from './usecases/get-signup.usecase.js';
import { ListSignupsUseCase } from './usecases/list-signups.usecase.js';
import { UpdateSignupUseCase } from './usecases/update-signup.usecase.js';

type SignupSubject =
  | 'signups.list'
  | 'signups.get'
  | 'signups.create'
  | 'signups.update'
  | 'signups.publish'
  | 'signups.close'
  | 'signups.delete'
  | 'signups.public.get'
  | 'signups.reminders.target';

/**
 * The signup lifecycle's bus subjects, and the public read (no credential). The edge has
 * authenticated the principal and validated the input; the scope is checked again before each
 * handler runs, and each handler checks the input again (defense in depth), runs one use case
 * and maps its result to the contract's view.
 */
@Injectable()
export class SignupsHandlers {
  constructor(
    private readonly presenter: SignupPresenter,
    private readonly listSignups: ListSignupsUseCase,
    private readonly getSignup: GetSignupUseCase,
    private readonly createSignup: CreateSignupUseCase,
    private readonly updateSignup: UpdateSignupUseCase,
    private readonly changeStatus: ChangeSignupStatusUseCase,
    private readonly deleteSignup: DeleteSignupUseCase,
    private readonly getPublicSignup: GetPublicSignupUseCase,
    private readonly getOwnedSignup: GetOwnedSignupUseCase,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, SignupSubject> {
    return {
      'signups.list': async ({ principal, query }) => {
        const { status, seriesId, cursor, limit, updated_since } = await validateInput(ListSignupsQueryDto, query, 'query');
        const listQuery = {
          owner: ownerOf(principal),
          status,
          seriesId: seriesId?.toLowerCase(),
          updatedSince: updatedSinceOf(updated_since),
          cursor,
          limit,
        };
        const written = await this.listSignups.json(listQuery);
        const texts = written.data.map((s) => s.json);
        if (texts.every((text) => text !== null)) return new JsonAnswer(pageText(texts, written.nextCursor));
        const page = await this.listSignups.execute(listQuery);
        return { data: page.data.map((s) => this.presenter.view(s)), nextCursor: page.nextCursor };
      },
      'signups.get': async ({ principal, id }) => {
        const query = { owner: ownerOf(principal), id: requireUuid(id) };
        const text = await this.getSignup.json(query);
        if (text !== null) return new JsonAnswer(text);
        const { signup, contents } = await this.getSignup.execute(query);
        return this.presenter.detail(signup, contents);
      },
      'signups.reminders.target': async ({ principal, signupId }) =>
        this.presenter.view(await this.getOwnedSignup.execute({ owner: ownerOf(principal), id: requireUuid(signupId) })),
      'signups.public.get': async ({ slugOrId }) => {
        const { signup, contents } = await this.getPublicSignup.execute(slugOrId);
        return this.presenter.publicView(signup, contents, new Date());
      },
      'signups.create': async ({ principal, input }) => {
        const valid = await validateInput(CreateSignupDto, input);
        return this.presenter.view(await this.createSignup.execute({ principal, input: valid }));
      },
      'signups.update': async ({ principal, id, input, ifMatch }) => {
        const valid = await validateInput(UpdateSignupDto, input);
        const { signup, contents } = await this.updateSignup.execute({
          owner: ownerOf(principal),
          id: requireUuid(id),
          input: valid,
          ifMatch,
        });
        return this.presenter.detail(signup, contents);
      },
      'signups.publish': async ({ principal, id }) =>
        this.presenter.view(await this.changeStatus.execute({ owner: ownerOf(principal), id: requireUuid(id), action: 'publish' })),
      'signups.close': async ({ principal, id }) =>
        this.presenter.view(await this.changeStatus.execute({ owner: ownerOf(principal), id: requireUuid(id), action: 'close' })),
      'signups.delete': async ({ principal, id, ifMatch }) =>
        this.presenter.view(await this.deleteSignup.execute({ owner: ownerOf(principal), id: requireUuid(id), ifMatch })),
    };
  }
}
