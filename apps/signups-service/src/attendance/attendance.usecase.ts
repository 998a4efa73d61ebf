import { Injectable } from '@nestjs/common';
import type { ParticipantStatus } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Tx } from '#libs/runtime';
import type { Participant } from '../participants/participant.js';
import { participantEvents, type ParticipantEventType } from '../participants/participant.presenter.js';
import { ParticipantsRepository } from '../participants/participants.repository.js';
import { RegistrationLock } from '../participants/registration-lock.js';
import type { Owner, Signup } from '../signups/signup.js';
import { AttendanceRepository } from './attendance.repository.js';

export interface AttendanceCommand {
  owner: Owner;
  signupId: string;
  id: string;
  /** The request's If-Match: the participant's ETag, checked once the signup and the participant are locked (RegistrationLock). */
  ifMatch?: string;
}

/** Who may be checked in or marked a no-show: a confirmed participant, or one already marked either way. */
const ON_THE_DAY: readonly ParticipantStatus[] = ['confirmed', 'attended', 'no_show'];

function notExpected(participant: Participant): ProblemError {
  return new ProblemError(
    'conflict',
    `This participant is ${participant.status}: only a confirmed participant can be checked in or marked a no-show.`,
  );
}

/**
 * The organizer's attendance acts on one participant of an owned signup, each in one transaction
 * that locks the signup row for update, then the participant row (RegistrationLock), as every
 * other change of a registration does: a check-in and a cancellation of one participant run one
 * after the other, and the second sees what the first did. A participant waiting in line, offered
 * a place or cancelled is 409. Acts that change nothing answer the participant as it is and emit
 * nothing; the others emit participant.checked_in, participant.no_show, or participant.updated
 * (an undo, a change of hours).
 */
@Injectable()
export class AttendanceUseCase {
  constructor(
    private readonly lock: RegistrationLock,
    private readonly participants: ParticipantsRepository,
    private readonly attendance: AttendanceRepository,
  ) {}

  /** Checks in (hours: given, or by default from its slots' times); checking in again only changes hours that are given. */
  checkIn(command: AttendanceCommand, hoursServed: number | undefined): Promise<Participant> {
    return this.act(command, async (tx, signup, participant) => {
      if (!ON_THE_DAY.includes(participant.status)) throw notExpected(participant);
      if (participant.status !== 'attended') {
        await this.attendance.checkIn(tx.manager, participant.id, hoursServed);
        return this.emit(tx, signup, participant.id, 'participant.checked_in');
      }
      if (hoursServed === undefined || hoursServed === participant.hoursServed) return participant;
      await this.attendance.setHours(tx.manager, participant.id, hoursServed);
      return this.emit(tx, signup, participant.id, 'participant.updated');
    });
  }

  /** Marks a no-show (a check-in and its hours go). */
  markNoShow(command: AttendanceCommand): Promise<Participant> {
    return this.act(command, async (tx, signup, participant) => {
      if (!ON_THE_DAY.includes(participant.status)) throw notExpected(participant);
      if (participant.status === 'no_show') return participant;
      await this.attendance.markNoShow(tx.manager, participant.id);
      return this.emit(tx, signup, participant.id, 'participant.no_show');
    });
  }

  /** Takes a check-in back: confirmed again, hours cleared. A participant not checked in is answered as it is (confirmed) or 409. */
  undoCheckIn(command: AttendanceCommand): Promise<Participant> {
    return this.undo(command, 'attended');
  }

  undoNoShow(command: AttendanceCommand): Promise<Participant> {
    return this.undo(command, 'no_show');
  }

  /** Changes the hours of a checked-in participant (409 for any other). */
  updateHours(command: AttendanceCommand, hoursServed: number): Promise<Participant> {
    return this.act(command, async (tx, signup, participant) => {
      if (participant.status !== 'attended') {
        throw new ProblemError('conflict', `This participant is ${participant.status}, not checked in: check them in first.`);
      }
      if (hoursServed === participant.hoursServed) return participant;
      await this.attendance.setHours(tx.manager, participant.id, hoursServed);
      return this.emit(tx, signup, participant.id, 'participant.updated');
    });
  }

  private undo(command: AttendanceCommand, marked: 'attended' | 'no_show'): Promise<Participant> {
    return this.act(command, async (tx, signup, participant) => {
      if (participant.status === 'confirmed') return participant;
      if (participant.status !== marked) {
        const what = marked === 'attended' ? 'checked in' : 'marked a no-show';
        throw new ProblemError('conflict', `This participant is ${participant.status}, not ${what}: there is nothing to undo.`);
      }
      await this.attendance.clear(tx.manager, participant.id);
      await this.participants.refreshStatus(tx.manager, participant.id);
      return this.emit(tx, signup, participant.id, 'participant.updated');
    });
  }

  private act(
    { owner, signupId, id, ifMatch }: AttendanceCommand,
    work: (tx: Tx, signup: Signup, participant: Participant) => Promise<Participant>,
  ): Promise<Participant> {
    return this.lock.byOrganizer(owner, signupId, id, work, ifMatch);
  }

  private async emit(tx: Tx, signup: Signup, id: string, type: ParticipantEventType): Promise<Participant> {
    const participant = await this.participants.read(tx.manager, id);
    await tx.emitAll(participantEvents(type, participant, signup, []));
    return participant;
  }
}
