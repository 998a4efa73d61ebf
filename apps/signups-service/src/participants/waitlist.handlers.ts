import { Injectable } from '@nestjs/common';
import { type HandlersOf, requireUuid, validateInput, WaitlistQueryDto } from '#libs/contracts';
import { ownerOf } from '../signups/signup.js';
import { participantView, waitlistedParticipantView } from './participant.presenter.js';
import { WaitlistUseCase } from './usecases/waitlist.usecase.js';

type WaitlistSubject = `signups.waitlist.${'list' | 'promote' | 'remove'}`;

/** signups.waitlist.*: the organizer's view and moves of a signup's lines (participants:read / participants:write, owner only). */
@Injectable()
export class WaitlistHandlers {
  constructor(private readonly waitlist: WaitlistUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, WaitlistSubject> {
    return {
      'signups.waitlist.list': async ({ principal, signupId, query }) => {
        const id = requireUuid(signupId);
        const { cursor, limit, type, targetId } = await validateInput(WaitlistQueryDto, query, 'query');
        const page = await this.waitlist.list({
          owner: ownerOf(principal),
          signupId: id,
          cursor,
          limit,
          kind: type,
          targetId: targetId?.toLowerCase(),
        });
        return { data: page.data.map(waitlistedParticipantView), nextCursor: page.nextCursor };
      },
      'signups.waitlist.promote': async ({ principal, signupId, id }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId), entryId: requireUuid(id, 'entryId') };
        return participantView(await this.waitlist.promote(command), principal.livemode);
      },
      'signups.waitlist.remove': async ({ principal, signupId, id, ifMatch }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId), entryId: requireUuid(id, 'entryId'), ifMatch };
        return participantView(await this.waitlist.remove(command), principal.livemode);
      },
    };
  }
}
