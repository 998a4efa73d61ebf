import { Injectable } from '@nestjs/common';
import {
  ExportPageQueryDto,
  type HandlersOf,
  ListParticipantsQueryDto,
  MAX_MESSAGE_CONTEXTS,
  RegistrationDto,
  requireUuid,
  updatedSinceOf,
  UpdateParticipantDto,
  validateInput,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { ownerOf } from '../signups/signup.js';
import { participantView } from './participant.presenter.js';
import { phoneOf, selectionsOf } from './registration-input.js';
import { CancelRegistrationUseCase } from './usecases/cancel-registration.usecase.js';
import { ChangeRegistrationUseCase } from './usecases/change-registration.usecase.js';
import { ExportParticipantsUseCase } from './usecases/export-participants.usecase.js';
import { ListParticipantsUseCase } from './usecases/list-participants.usecase.js';
import { MessageContextsUseCase } from './usecases/message-contexts.usecase.js';
import { RegisterParticipantUseCase } from './usecases/register-participant.usecase.js';

type ParticipantsSubject = `signups.participants.${'register' | 'list' | 'get' | 'export' | 'update' | 'delete' | 'messages'}`;

/** The ids of a message contexts request: a list of at most MAX_MESSAGE_CONTEXTS uuids (lower-cased, each once); 422 otherwise. */
function participantIdsOf(input: { participantIds?: unknown }): string[] {
  const ids = input.participantIds;
  if (!Array.isArray(ids)) throw ProblemError.validation([{ path: 'participantIds', message: 'Expected array' }]);
  if (ids.length > MAX_MESSAGE_CONTEXTS) {
    throw ProblemError.validation([{ path: 'participantIds', message: `Must have at most ${MAX_MESSAGE_CONTEXTS} entries` }]);
  }
  return [...new Set(ids.map((id, i) => requireUuid(id, `participantIds.${i}`)))];
}

/**
 * signups.participants.*: registration (no credential needed, none checked: a credential only
 * narrows the signup to its mode and lets its organization hear why its draft refuses), and the
 * organizer's list, single read, export (page by page), edit and removal (participants:read / participants:write, owner only: the
 * caller's mode is the signup's, the views' livemode); and, for the reminders-service alone (an
 * internal subject), what the emails to some participants need.
 */
@Injectable()
export class ParticipantsHandlers {
  constructor(
    private readonly register: RegisterParticipantUseCase,
    private readonly listParticipants: ListParticipantsUseCase,
    private readonly exportParticipants: ExportParticipantsUseCase,
    private readonly changeRegistration: ChangeRegistrationUseCase,
    private readonly cancelRegistration: CancelRegistrationUseCase,
    private readonly messageContexts: MessageContextsUseCase,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, ParticipantsSubject> {
    return {
      'signups.participants.register': async ({ principal, signupId, input }) => {
        const id = requireUuid(signupId);
        const valid = await validateInput(RegistrationDto, input);
        return this.register.execute({
          caller: principal && ownerOf(principal),
          signupId: id,
          name: valid.name,
          email: valid.email,
          phone: phoneOf(valid.phone) ?? null,
          selections: selectionsOf(valid.selections),
          answers: valid.answers ?? {},
        });
      },
      'signups.participants.list': async ({ principal, signupId, query }) => {
        const id = requireUuid(signupId);
        const { cursor, limit, status, updated_since } = await validateInput(ListParticipantsQueryDto, query, 'query');
        const updatedSince = updatedSinceOf(updated_since);
        const page = await this.listParticipants.execute({ owner: ownerOf(principal), signupId: id, cursor, limit, status, updatedSince });
        return { data: page.data.map((participant) => participantView(participant, principal.livemode)), nextCursor: page.nextCursor };
      },
      'signups.participants.get': async ({ principal, signupId, id }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId), id: requireUuid(id, 'participantId') };
        return participantView(await this.listParticipants.one(command), principal.livemode);
      },
      'signups.participants.export': async ({ principal, signupId, query }) => {
        const id = requireUuid(signupId);
        const { cursor, limit } = await validateInput(ExportPageQueryDto, query, 'query');
        return this.exportParticipants.execute({ owner: ownerOf(principal), signupId: id, cursor, limit });
      },
      'signups.participants.update': async ({ principal, signupId, id, ifMatch, input }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId), id: requireUuid(id, 'participantId'), ifMatch };
        const valid = await validateInput(UpdateParticipantDto, input);
        const changes = {
          name: valid.name,
          email: valid.email,
          phone: phoneOf(valid.phone),
          selections: valid.selections && selectionsOf(valid.selections),
          answers: valid.answers,
        };
        return participantView(await this.changeRegistration.byOrganizer({ ...command, changes }), principal.livemode);
      },
      'signups.participants.delete': async ({ principal, signupId, id, ifMatch }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId), id: requireUuid(id, 'participantId'), ifMatch };
        return participantView(await this.cancelRegistration.byOrganizer(command), principal.livemode);
      },
      'signups.participants.messages': async (input) => ({ data: await this.messageContexts.execute(participantIdsOf(input)) }),
    };
  }
}
