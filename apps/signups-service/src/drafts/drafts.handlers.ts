import { Injectable } from '@nestjs/common';
import { DraftFromDescriptionDto, type HandlersOf, validateInput } from '#libs/contracts';
import { CreateDraftUseCase } from './create-draft.usecase.js';

/** signups.drafts.create: a draft from a description (scope ai:draft). */
@Injectable()
export class DraftsHandlers {
  constructor(private readonly createDraft: CreateDraftUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, 'signups.drafts.create'> {
    return {
      'signups.drafts.create': async ({ principal, input }) => {
        const { description, timeZone } = await validateInput(DraftFromDescriptionDto, input);
        return this.createDraft.execute(principal, description, timeZone);
      },
    };
  }
}
