import { AsyncResource } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { newId, type RegistrationResultView } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { Batches } from '#libs/persistence';
import type { ProblemError } from '#libs/problem';
import { LOGGER, Outbox, type Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { newConfirmationToken } from '../confirmation-token.js';
import type { Selection } from '../participant.js';
import { participantEvents, registrationResult } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { registrationRefusal } from '../registration-refusal.js';
import { SelectionAllocator } from '../selection-allocator.js';

export interface RegisterCommand {
  /** The caller's organization and mode when a credential came with the request; undefined for anonymous callers. */
  caller?: Owner;
  signupId: string;
  name: string;
  email: string;
  /** E.164, or null. */
  phone: string | null;
  /** Normalized, without duplicates. */
  selections: Selection[];
}

/**
 * A registration waiting for its signup's next batch: its participant id and confirmation token,
 * made once (a registration run again after its batch failed keeps them, so one whose batch did
 * commit after all cannot be stored twice), and a way to run code in the async context (request
 * id, span) it came in.
 */
interface Pending {
  command: RegisterCommand;
  participantId: string;
  token: { token: string; hash: string };
  inContext<T>(work: () => Promise<T>): Promise<T>;
}

/** What a registration came to: the answer and whether a participant was stored, or why its signup refused it. */
type Outcome = { result: RegistrationResultView; stored: boolean } | { refusal: ProblemError };

/** No registration of the batch was stored: the transaction rolls back, and this carries the answers out of it. */
class NothingStored extends Error {
  constructor(readonly outcomes: Outcome[]) {
    super('no registration of the batch was stored');
  }
}

/** Registrations to one signup run in one transaction at most. */
const BATCH = 64;

/**
 * Registers participants. Registrations to one signup queue on its row, so the ones that come
 * while a transaction of that signup runs go in the next one together (Batches): one lock, one
 * event insert and one commit for all of them, instead of one each. In one transaction:
 * 1. counts the batch's registrations on the signup row, which locks it (countParticipants);
 * 2. for each registration in turn, in the context of its request:
 *    a. decides on the row as the registrations before it left it, which nothing else can
 *       change until the transaction ends, whether it admits one more participant
 *       (registrationRefusal: 404, 400 or 422 otherwise);
 *    b. takes each selection that has room and stores the participant with what it took, in one
 *       statement (ParticipantsRepository.register), then reads again each selection it could
 *       not take, for the reason; if selections were asked and none was taken, nothing is
 *       stored: no token, success false;
 *    c. emits participant.registered and slot/item.filled for what it filled;
 * 3. gives back the count of the registrations not stored, and commits (with the events, in one
 *    statement); rolls back instead when none was stored.
 * When a batch fails, each of its registrations runs again in a transaction of its own, so only
 * a failing one fails.
 */
@Injectable()
export class RegisterParticipantUseCase {
  private readonly batches: Batches<string, Pending, Outcome>;

  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly outbox: Outbox,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.batches = new Batches({
      run: (signupId, batch) => this.registerAll(signupId, batch).catch((err: unknown) => (err instanceof NothingStored ? err.outcomes : Promise.reject(err))),
      max: BATCH,
      onBatchFailed: (err, signupId, registrations) => logger.warn({ err, signupId, registrations }, 'registration batch failed; registering one by one'),
    });
  }

  async execute(command: RegisterCommand): Promise<RegistrationResultView> {
    const outcome = await this.batches.submit(command.signupId, {
      command, participantId: newId(), token: newConfirmationToken(), inContext: AsyncResource.bind((work) => work()),
    });
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.result;
  }

  private registerAll(signupId: string, batch: readonly Pending[]): Promise<Outcome[]> {
    return this.outbox.transaction(async (tx) => {
      const counted = await this.signups.countParticipants(tx.manager, signupId, batch.length);
      const countedBefore = (counted?.participantCount ?? 0) - batch.length;
      let stored = 0;
      const outcomes: Outcome[] = [];
      for (const pending of batch) {
        const before = counted && { ...counted, participantCount: countedBefore + stored };
        const outcome = await pending.inContext(() => this.registerOne(tx, before, pending));
        if ('stored' in outcome && outcome.stored) stored += 1;
        outcomes.push(outcome);
      }
      if (stored === 0) throw new NothingStored(outcomes);
      if (stored < batch.length) await this.signups.countParticipants(tx.manager, signupId, stored - batch.length);
      return outcomes;
    });
  }

  private async registerOne(tx: Tx, signup: Signup | undefined, { command, participantId, token }: Pending): Promise<Outcome> {
    const { caller, name, email, phone, selections } = command;
    const refusal = registrationRefusal(signup, caller, phone !== null, new Date());
    if (refusal) return { refusal };
    const { taken, participant } = await this.participants.register(tx.manager, { id: participantId, signupId: signup!.id, name, email, phone, tokenHash: token.hash }, selections);
    const allocations = await this.allocator.outcomes(tx.manager, signup!.id, selections, taken);
    if (!participant) return { result: registrationResult(allocations), stored: false };
    const filled = allocations.flatMap((a) => (a.confirmed && a.transition ? [{ target: a.target, transition: a.transition }] : []));
    await tx.emitAll(participantEvents('participant.registered', participant, signup!, filled));
    return { result: registrationResult(allocations, { participant, token: token.token }), stored: true };
  }
}
