import { Inject, Injectable } from '@nestjs/common';
import type { ParticipantMessageContext } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { LOGGER } from '#libs/runtime';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { ConfirmationTokens } from '../confirmation-token.js';
import { MessageContextPresenter } from '../message-context.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';

/**
 * What the emails to some participants need (signups.participants.messages, asked by the
 * reminders-service only): each participant found, as it is now, with its signup, the slots and
 * items it holds or waits for, and its edit link, from its confirmation token opened. Two
 * statements per request, whatever its size: the participants, then their signups with their
 * slots and items. An unknown id is left out.
 */
@Injectable()
export class MessageContextsUseCase {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly signups: SignupsRepository,
    private readonly tokens: ConfirmationTokens,
    private readonly presenter: MessageContextPresenter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(participantIds: string[]): Promise<ParticipantMessageContext[]> {
    const found = await this.participants.findForMessages(participantIds);
    if (found.length === 0) return [];
    const signups = new Map(
      (await this.signups.findManyWithContents([...new Set(found.map((p) => p.signupId))])).map((s) => [s.signup.id, s]),
    );
    let unopened = 0;
    const contexts = found.flatMap((participant) => {
      // Its signup was deleted (with it) since the first statement.
      const of = signups.get(participant.signupId);
      if (!of) return [];
      const token = participant.sealedToken === null ? undefined : this.tokens.open(participant.sealedToken);
      if (participant.sealedToken !== null && token === undefined) unopened++;
      return [this.presenter.context(participant, of.signup, of.contents, token)];
    });
    if (unopened > 0) {
      this.logger.warn({ unopened }, 'confirmation tokens that CONFIRMATION_TOKEN_KEY cannot open: their emails carry no edit link');
    }
    return contexts;
  }
}
