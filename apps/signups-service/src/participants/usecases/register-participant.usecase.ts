import { Injectable } from '@nestjs/common';
import { newId, type RegistrationResultView } from '#libs/contracts';
import { Outbox } from '#libs/runtime';
import type { Owner } from '../../signups/signup.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { newConfirmationToken } from '../confirmation-token.js';
import type { Selection } from '../participant.js';
import { participantEvents, registrationResult } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { registrationRefusal } from '../registration-refusal.js';
import { SelectionAllocator, type Allocation } from '../selection-allocator.js';

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

/** Every selection failed: the transaction rolls back, and this carries the answer out of it. */
class NothingStored extends Error {
  constructor(readonly allocations: Allocation[]) {
    super('every selection failed');
  }
}

/**
 * Registers a participant in one transaction, holding the signup row (which registrations to one
 * signup queue on) for as few round trips as can be:
 * 1. counts one more participant on the signup row, which locks it (countParticipants);
 * 2. decides on that row as it was before this registration, which nothing can change until the
 *    transaction ends, whether it admits one more participant (registrationRefusal: 404, 400 or
 *    422 otherwise), and rolls back when not;
 * 3. takes each selection that has room and stores the participant with what it took, in one
 *    statement (ParticipantsRepository.register), then reads again each selection it could not
 *    take, for the reason;
 * 4. if selections were asked and none was confirmed, rolls everything back: nothing stored,
 *    no token, success false;
 * 5. otherwise emits participant.registered and slot/item.filled for what it filled, in one
 *    statement, and commits.
 */
@Injectable()
export class RegisterParticipantUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly outbox: Outbox,
  ) {}

  async execute(command: RegisterCommand): Promise<RegistrationResultView> {
    try {
      return await this.register(command);
    } catch (err) {
      if (err instanceof NothingStored) return registrationResult(err.allocations);
      throw err;
    }
  }

  private register({ caller, signupId, name, email, phone, selections }: RegisterCommand): Promise<RegistrationResultView> {
    const { token, hash } = newConfirmationToken();
    return this.outbox.transaction(async (tx) => {
      const counted = await this.signups.countParticipants(tx.manager, signupId, 1);
      const before = counted && { ...counted, participantCount: counted.participantCount - 1 };
      const refusal = registrationRefusal(before, caller, phone !== null, new Date());
      if (refusal) throw refusal;
      const signup = counted!;
      const { taken, participant } = await this.participants.register(tx.manager, { id: newId(), signupId: signup.id, name, email, phone, tokenHash: hash }, selections);
      const allocations = await this.allocator.outcomes(tx.manager, signup.id, selections, taken);
      if (!participant) throw new NothingStored(allocations);
      const filled = allocations.flatMap((a) => (a.confirmed && a.transition ? [{ target: a.target, transition: a.transition }] : []));
      await tx.emitAll(participantEvents('participant.registered', participant, signup, filled));
      return registrationResult(allocations, { participant, token });
    });
  }
}
