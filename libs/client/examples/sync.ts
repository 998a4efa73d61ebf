import { type components, isProblem, type SignupClient, type WebhookEvent } from '@signup-platform/client';

export type Signup = components['schemas']['SignupView'];
export type Participant = components['schemas']['ParticipantView'];

/** Where the copy lives: your database. Every method may be called again with the same data. */
export interface SyncStore {
  saveSignup(signup: Signup): Promise<void>;
  /** Deletes the signup with its participants. */
  deleteSignup(id: string): Promise<void>;
  saveParticipant(participant: Participant): Promise<void>;
  /** Records a participant's first reminder: sets its remindedAt when it has none, as the API does. */
  markReminded(participantId: string, sentAt: string): Promise<void>;
  /** The ids of the signups in the copy. */
  signupIds(): Promise<string[]>;
  /** Whether the event with this id was applied (a log entry's id is its webhooks' webhook-id). */
  seen(eventId: string): Promise<boolean>;
  markSeen(eventId: string): Promise<void>;
  loadState(): Promise<SyncState>;
  saveState(state: SyncState): Promise<void>;
}

export interface SyncState {
  /** The last log entry applied; none when the log was empty at the copy. */
  lastEventId?: string;
  /** When the last full read of the log (or the copy) started: every change before it is in the copy. */
  syncedAt?: string;
}

/** A re-copy lists what changed since a day before `syncedAt`: room for clock skew and for events recorded late. */
const RECOPY_MARGIN_MS = 24 * 3600_000;

/**
 * Keeps a copy of an organization's signups and participants: a full copy once, then the event
 * log after the last entry applied, oldest first. Needs an API key with participants:read (the log
 * is not open to OAuth).
 */
export class SignupSync {
  private running?: Promise<void>;
  private next?: Promise<void>;

  constructor(
    private readonly api: SignupClient,
    private readonly store: SyncStore,
  ) {}

  /**
   * Brings the copy up to date: a full copy the first time, then the log's new entries. Run it on
   * a schedule. One runs at a time: a call while one runs waits for it, then reads once more.
   */
  catchUp(): Promise<void> {
    if (this.running)
      return (this.next ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.next = undefined;
          return this.catchUp();
        }));
    this.running = this.readLog().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * A verified webhook delivery. Deliveries come in no promised order, so it is not applied out of
   * turn: an event applied already is skipped by its id (answers false), any other one makes the
   * log be read now, in order (answers true; an event the log does not list yet comes with the next catch-up).
   */
  async receive(event: WebhookEvent): Promise<boolean> {
    if (await this.store.seen(event.id)) return false;
    await this.catchUp();
    return true;
  }

  /**
   * Lists everything, having read the log's newest entry first: a change made during the listing
   * is then also read from the log, never missed. With `updatedSince`, only the participants that
   * changed since are listed again; the signups are all listed, to drop the ones deleted meanwhile.
   */
  async copyEverything(updatedSince?: string): Promise<SyncState> {
    const syncedAt = new Date().toISOString();
    const [newest] = (await this.api.get('/events', { query: { limit: 1 } })).data;
    const listed = new Set<string>();
    for await (const signup of this.api.paginate('/signups')) {
      listed.add(signup.id);
      await this.store.saveSignup(signup);
      // Without a status the list leaves out cancelled participants: list those too.
      for (const status of [undefined, 'cancelled'] as const) {
        const query = { status, updated_since: updatedSince };
        for await (const participant of this.api.paginate('/signups/{id}/participants', { params: { id: signup.id }, query }))
          await this.store.saveParticipant(participant);
      }
    }
    for (const id of await this.store.signupIds()) if (!listed.has(id)) await this.store.deleteSignup(id);
    const state: SyncState = { lastEventId: newest?.id, syncedAt };
    await this.store.saveState(state);
    return state;
  }

  /** One log entry, in the log's order. Applied once: an id seen before is skipped. */
  async apply(event: WebhookEvent): Promise<void> {
    if (await this.store.seen(event.id)) return;
    if (event.type === 'signup.deleted') await this.store.deleteSignup(event.data.id);
    else if (event.type.startsWith('signup.')) await this.store.saveSignup(event.data as Signup);
    else if (event.type.startsWith('participant.')) {
      // Every participant.* carries the participant as it then was (participant.canceled: status cancelled).
      const { organizationId: _, ...participant } = event.data as Participant & { organizationId: string };
      await this.store.saveParticipant(participant);
    } else if (event.type === 'reminder.sent') await this.store.markReminded(event.data.participantId, event.data.sentAt);
    // slot.* and item.*: not copied here.
    await this.store.markSeen(event.id);
  }

  private async readLog(): Promise<void> {
    let state = await this.store.loadState();
    if (!state.syncedAt) state = await this.copyEverything();
    const startedAt = new Date().toISOString();
    // After the last entry applied; with none (the log was empty at the copy), from its oldest entry.
    const query = state.lastEventId ? { after: state.lastEventId } : { order: 'asc' as const };
    try {
      for await (const entry of this.api.paginate('/events', { query })) {
        await this.apply(entry as WebhookEvent);
        state = { ...state, lastEventId: entry.id };
        await this.store.saveState(state);
      }
    } catch (error) {
      if (!isProblem(error, 'cursor_expired')) throw error;
      // Away longer than the log keeps entries (30 days): copy again what changed, then read on from the new mark.
      await this.copyEverything(new Date(Date.parse(state.syncedAt!) - RECOPY_MARGIN_MS).toISOString());
      return this.readLog();
    }
    await this.store.saveState({ ...state, syncedAt: startedAt });
  }
}
