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

/** A registration waiting for its signup's next batch, with a way to run code in the async context (request id, span) it came in. */
interface Pending {
  command: RegisterCommand;
  inContext<T>(work: () => Promise<T>): Promise<T>;
}

/** What a registration came to: the answer, or why its signup refused it. */
type Outcome = { result: RegistrationResultView } | { refusal: ProblemError };

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
 *    statement).
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
      run: (signupId, batch) => this.registerAll(signupId, batch),
      max: BATCH,
      onBatchFailed: (err, signupId, registrations) => logger.warn({ err, signupId, registrations }, 'registration batch failed; registering one by one'),
    });
  }

  async execute(command: RegisterCommand): Promise<RegistrationResultView> {
    const outcome = await this.batches.submit(command.signupId, { command, inContext: AsyncResource.bind((work) => work()) });
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.result;
  }

  private registerAll(signupId: string, batch: readonly Pending[]): Promise<Outcome[]> {
    return this.outbox.transaction(async (tx) => {
      const counted = await this.signups.countParticipants(tx.manager, signupId, batch.length);
      let participantCount = (counted?.participantCount ?? 0) - batch.length;
      const outcomes: Outcome[] = [];
      for (const { command, inContext } of batch) {
        const before = counted && { ...counted, participantCount };
        const outcome = await inContext(() => this.registerOne(tx, before, command));
        if ('result' in outcome && outcome.result.confirmationToken) participantCount += 1;
        outcomes.push(outcome);
      }
      if (counted && participantCount !== counted.participantCount) {
        await this.signups.countParticipants(tx.manager, signupId, participantCount - counted.participantCount);
      }
      return outcomes;
    });
  }

  private async registerOne(tx: Tx, signup: Signup | undefined, { caller, name, email, phone, selections }: RegisterCommand): Promise<Outcome> {
    const refusal = registrationRefusal(signup, caller, phone !== null, new Date());
    if (refusal) return { refusal };
    const { token, hash } = newConfirmationToken();
    const { taken, participant } = await this.participants.register(tx.manager, { id: newId(), signupId: signup!.id, name, email, phone, tokenHash: hash }, selections);
    const allocations = await this.allocator.outcomes(tx.manager, signup!.id, selections, taken);
    if (!participant) return { result: registrationResult(allocations) };
    const filled = allocations.flatMap((a) => (a.confirmed && a.transition ? [{ target: a.target, transition: a.transition }] : []));
    await tx.emitAll(participantEvents('participant.registered', participant, signup!, filled));
    return { result: registrationResult(allocations, { participant, token }) };
  }
}
