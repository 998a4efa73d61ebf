import { Inject, Injectable } from '@nestjs/common';
import type { MessageItem, MessageOffer, MessageSlot, ParticipantMessageContext } from '#libs/contracts';
import type { Signup } from '../signups/signup.js';
import { PUBLIC_ORIGIN, SignupPresenter } from '../signups/signup.presenter.js';
import type { Contents, Item, Slot } from '../signups/slot-item.js';
import type { Participant } from './participant.js';
import { participantView } from './participant.presenter.js';

/** Slots with a start first, earliest first; the others after them, in the signup's order (a stable sort keeps it). */
function byStart(a: Slot, b: Slot): number {
  if (a.startTime === null || b.startTime === null) return (a.startTime === null ? 1 : 0) - (b.startTime === null ? 1 : 0);
  return a.startTime.getTime() - b.startTime.getTime();
}

function messageSlot(slot: Slot): MessageSlot {
  return {
    id: slot.id,
    title: slot.title,
    startsAt: slot.startTime?.toISOString() ?? null,
    endsAt: slot.endTime?.toISOString() ?? null,
    updatedAt: slot.updatedAt.toISOString(),
  };
}

function messageItem(item: Item): MessageItem {
  return { id: item.id, name: item.name, updatedAt: item.updatedAt.toISOString() };
}

/** Maps a participant, its signup and its opened confirmation token to what its emails need. */
@Injectable()
export class MessageContextPresenter {
  constructor(
    private readonly signups: SignupPresenter,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  /** token: the participant's confirmation token, when it can be had (else no edit link, no offer links). */
  context(participant: Participant, signup: Signup, contents: Contents, token: string | undefined): ParticipantMessageContext {
    const concerned = new Set([...participant.selections.map((s) => s.id), ...participant.waitlist.map((e) => e.targetId)]);
    const manageUrl = token === undefined ? null : `${this.publicOrigin}/r/${token}`;
    return {
      signup: {
        id: signup.id,
        title: signup.title,
        description: signup.description,
        location: signup.location,
        eventDate: signup.eventDate.toISOString(),
        timeZone: signup.timeZone,
        publicUrl: this.signups.publicUrl(signup),
        status: signup.status,
        updatedAt: signup.updatedAt.toISOString(),
        organizationId: signup.organizationId,
        livemode: signup.livemode,
      },
      participant: participantView(participant, signup.livemode),
      slots: contents.slots
        .filter((slot) => concerned.has(slot.id))
        .sort(byStart)
        .map(messageSlot),
      items: contents.items.filter((item) => concerned.has(item.id)).map(messageItem),
      manageUrl,
      offers:
        manageUrl === null
          ? []
          : participant.waitlist.flatMap((entry): MessageOffer[] =>
              entry.state === 'offered'
                ? [
                    {
                      entryId: entry.id,
                      type: entry.kind,
                      targetId: entry.targetId,
                      acceptUrl: `${manageUrl}#waitlist-${entry.id}`,
                      declineUrl: `${manageUrl}#waitlist-${entry.id}`,
                    },
                  ]
                : [],
            ),
    };
  }
}
