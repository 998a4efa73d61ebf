import { Injectable } from '@nestjs/common';
import { newId, type RegistrationResultView } from '#libs/contracts';
import { Outbox } from '#libs/runtime';
import { emitAll } from '../../common/pending-event.js';
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
 * Registers a participant in one transaction:
 * 1. locks the signup row (registrations to one signup queue there) and decides from that row,
 *    which nothing can change until the transaction ends, whether it admits one more
 *    participant (registrationRefusal: 404, 400 or 422 otherwise), then counts them;
 * 2. allocates each selection independently (SelectionAllocator.allocateEach);
 * 3. if selections were asked and none was confirmed, rolls everything back: nothing stored,
 *    no token, success false;
 * 4. otherwise stores the participant with its confirmed selections and the hash of a new
 *    confirmation token, and emits participant.registered and slot/item.filled for what it filled.
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
    return this.outbox.transaction(async (tx) => {
      const locked = await this.signups.lock(tx.manager, signupId, 'update');
      const refusal = registrationRefusal(locked, caller, phone !== null, new Date());
      if (refusal) throw refusal;
      const signup = await this.signups.countParticipants(tx.manager, locked!.id, 1);
      const allocations = await this.allocator.allocateEach(tx.manager, signup.id, selections);
      const confirmed = allocations.filter((a) => a.confirmed);
      if (selections.length > 0 && confirmed.length === 0) throw new NothingStored(allocations);
      const { token, hash } = newConfirmationToken();
      const participant = await this.participants.insert(
        tx.manager,
        { id: newId(), signupId: signup.id, name, email, phone, tokenHash: hash },
        confirmed.map((a) => a.selection),
      );
      const filled = confirmed.flatMap((a) => (a.transition ? [{ target: a.target, transition: a.transition }] : []));
      await emitAll(tx, participantEvents('participant.registered', participant, signup, filled));
      return registrationResult(allocations, { participant, token });
    });
  }
}
