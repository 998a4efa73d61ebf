import { Injectable } from '@nestjs/common';
import { newId, type RegistrationResultView } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
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

/** The signup changed between the admission that missed and the re-read that should explain it. */
class AdmissionRace extends Error {}

const ATTEMPTS = 2;

/**
 * Registers a participant in one transaction:
 * 1. admits one more participant by a conditional UPDATE of the signup's participant_count
 *    (which also locks the signup row: registrations to one signup queue there);
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
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        return await this.attempt(command);
      } catch (err) {
        if (err instanceof NothingStored) return registrationResult(err.allocations);
        if (!(err instanceof AdmissionRace)) throw err;
      }
    }
    throw new ProblemError('conflict', 'The signup changed while registering; retry.');
  }

  private attempt({ caller, signupId, name, email, phone, selections }: RegisterCommand): Promise<RegistrationResultView> {
    const now = new Date();
    return this.outbox.transaction(async (tx) => {
      const signup = await this.signups.admit(tx.manager, signupId, { livemode: caller?.livemode, hasPhone: phone !== null, now });
      if (!signup) throw registrationRefusal(await this.signups.findById(signupId, tx.manager), caller, phone !== null, now) ?? new AdmissionRace();
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
