import { Inject, Injectable } from '@nestjs/common';
import { newId, type RegistrationResultView } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { Batches, reserveInTurn } from '#libs/persistence';
import type { ProblemError } from '#libs/problem';
import { LOGGER, Outbox, type Tx } from '#libs/runtime';
import { isSignupFull } from '../../signups/registration-window.js';
import type { Owner, Signup } from '../../signups/signup.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { WaitlistRepository } from '../../waitlist/waitlist.repository.js';
import { type Answers, answersOnRegistration, invalidAnswers } from '../answers.js';
import { ConfirmationTokens, type IssuedToken } from '../confirmation-token.js';
import type { NewParticipant, Selection } from '../participant.js';
import { participantEvents, registrationResult } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { registrationRefusal } from '../registration-refusal.js';
import { type Allocation, SelectionAllocator } from '../selection-allocator.js';

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
  /** Checked against the signup's questions as the registration's transaction reads them. */
  answers: Answers;
}

/**
 * A registration waiting for its signup's next batch: its participant id and confirmation token,
 * made once, before the batch (a registration run again after its batch failed keeps them, so one
 * whose batch did commit after all cannot be stored twice; and sealing the token costs the signup's
 * lock nothing).
 */
interface Pending {
  command: RegisterCommand;
  participantId: string;
  token: IssuedToken;
}

/**
 * What a registration came to: the answer, whether a participant was stored and whether it
 * counts among the signup's participants (not when it waits in the signup's own line), or why
 * its signup refused it.
 */
type Outcome = { result: RegistrationResultView; stored: boolean; counted: boolean } | { refusal: ProblemError };

/** Registrations to one signup run in one transaction at most. */
const BATCH = 64;

/**
 * Registers participants. Registrations to one signup queue on its row, so the ones that come
 * while a transaction of that signup runs go in the next one together (Batches, reserveInTurn):
 * one lock, one event insert and one commit for all of them, instead of one each. The batch's
 * registrations are counted on the signup row at once, which locks it (countParticipants), and
 * those not stored are counted back down before the commit; a batch that stored nobody rolls
 * back instead. When a batch fails, each of its registrations runs again in a transaction of its
 * own, so only a failing one fails. Each registration, in turn and in the context of its request:
 * 1. decides on the row as the registrations before it left it, which nothing else can change
 *    until the transaction ends, whether it admits one more participant (registrationRefusal:
 *    404, 400 or 422 otherwise), and whether its answers fit the questions the row carries
 *    (answersOnRegistration: 422 on `answers.<questionId>` otherwise);
 * 2. takes each selection that has room and stores the participant with what it took, in one
 *    statement (ParticipantsRepository.register), then reads again each selection it could not
 *    take, for the reason; if selections were asked and none was taken, nothing is stored: no
 *    token, success false;
 * 3. emits participant.registered and slot/item.filled for what it filled.
 * With the signup's waitlist on, a selection that did not fit (and could: it asks no more than
 * its limit) joins the end of its slot's or item's line instead of failing, and a registration
 * that finds the signup full (maxParticipants) joins the signup's own line, not counted, with its
 * selections in their lines behind it; either emits participant.waitlisted too.
 */
@Injectable()
export class RegisterParticipantUseCase {
  private readonly batches: Batches<string, Pending, Outcome>;

  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly waitlist: WaitlistRepository,
    private readonly tokens: ConfirmationTokens,
    private readonly outbox: Outbox,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.batches = new Batches({
      run: reserveInTurn({
        transaction: (work) => this.outbox.transaction(work),
        reserve: (tx: Tx, signupId: string, registrations: number) => this.signups.countParticipants(tx.manager, signupId, registrations),
        decide: (tx, counted, uncounted, pending) =>
          this.registerOne(tx, counted && { ...counted, participantCount: counted.participantCount - uncounted }, pending),
        kept: (outcome) => 'counted' in outcome && outcome.counted,
        wrote: (outcome) => 'stored' in outcome && outcome.stored,
        release: (tx, signupId, registrations) => this.signups.countParticipants(tx.manager, signupId, -registrations),
      }),
      max: BATCH,
      onBatchFailed: (err, signupId, registrations) =>
        logger.warn({ err, signupId, registrations }, 'registration batch failed; registering one by one'),
    });
  }

  async execute(command: RegisterCommand): Promise<RegistrationResultView> {
    const outcome = await this.batches.submit(command.signupId, { command, participantId: newId(), token: this.tokens.issue() });
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.result;
  }

  private async registerOne(tx: Tx, signup: Signup | undefined, { command, participantId, token }: Pending): Promise<Outcome> {
    const { caller, name, email, phone, selections } = command;
    const refusal = registrationRefusal(signup, caller, phone !== null, new Date());
    if (refusal) return { refusal };
    const { answers, errors } = answersOnRegistration(signup!.questions, command.answers);
    if (errors.length > 0) return { refusal: invalidAnswers(errors) };
    const person: NewParticipant = {
      id: participantId,
      signupId: signup!.id,
      name,
      email,
      phone,
      answers,
      tokenHash: token.hash,
      sealedToken: token.sealed,
    };
    if (signup!.waitlist.enabled && isSignupFull(signup!)) return this.joinSignupLine(tx, signup!, person, selections, token.token);
    const { taken, participant } = await this.participants.register(tx.manager, person, selections, signup!.waitlist.enabled);
    const allocations = await this.allocator.outcomes(tx.manager, signup!.id, selections, taken);
    if (!participant) return { result: registrationResult(allocations), stored: false, counted: false };
    const waiting = signup!.waitlist.enabled ? allocations.filter((a) => !a.confirmed && a.waitable) : [];
    const entries = await this.waitlist.join(tx.manager, signup!.id, participant.id, waiting.map(lineOf));
    if (entries.length > 0) await this.participants.refreshStatus(tx.manager, participant.id);
    const stored = entries.length > 0 ? await this.participants.read(tx.manager, participant.id) : participant;
    const filled = allocations.flatMap((a) => (a.confirmed && a.transition ? [{ target: a.target, transition: a.transition }] : []));
    await tx.emitAll([
      ...participantEvents('participant.registered', stored, signup!, filled),
      ...(entries.length > 0 ? participantEvents('participant.waitlisted', stored, signup!, []) : []),
    ]);
    const answered = allocations.filter((a) => !waiting.includes(a));
    return {
      result: registrationResult(answered, { participant: stored, token: token.token, waitlisted: entries }),
      stored: true,
      counted: true,
    };
  }

  /**
   * A registration to a full signup with its waitlist on: stored in the signup's own line (not
   * counted), each selection that could ever fit in its line behind that; the others fail as
   * they would have. Nothing is stored when selections were asked and none can wait.
   */
  private async joinSignupLine(tx: Tx, signup: Signup, person: NewParticipant, selections: Selection[], token: string): Promise<Outcome> {
    const allocations = await this.allocator.outcomes(tx.manager, signup.id, selections, []);
    const waiting = allocations.filter((a) => !a.confirmed && a.waitable);
    const failed = allocations.filter((a) => !waiting.includes(a));
    if (selections.length > 0 && waiting.length === 0) return { result: registrationResult(failed), stored: false, counted: false };
    const participant = await this.participants.insertWaiting(tx.manager, person);
    const entries = await this.waitlist.join(tx.manager, signup.id, participant.id, [
      { kind: 'signup', targetId: signup.id, quantity: 1 },
      ...waiting.map(lineOf),
    ]);
    const stored = await this.participants.read(tx.manager, participant.id);
    await tx.emitAll([
      ...participantEvents('participant.registered', stored, signup, []),
      ...participantEvents('participant.waitlisted', stored, signup, []),
    ]);
    return { result: registrationResult(failed, { participant: stored, token, waitlisted: entries }), stored: true, counted: false };
  }
}

/** The line a selection that did not fit joins. */
function lineOf({ selection }: Allocation): { kind: Selection['type']; targetId: string; quantity: number } {
  return { kind: selection.type, targetId: selection.id, quantity: selection.quantity };
}
