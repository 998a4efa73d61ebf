import type { Participant, Signup, SyncState, SyncStore } from '@signup-platform/client/examples/sync';
import type { SignupClient } from '#libs/client';

/** The copy in memory, as an integrator's database would keep it. */
export class MemoryStore implements SyncStore {
  readonly signups = new Map<string, Signup>();
  readonly participants = new Map<string, Participant>();
  readonly applied = new Set<string>();
  state: SyncState = {};
  /** Runs once the listing of a copy is done, before its state is saved. */
  afterListing?: () => Promise<void>;

  async saveSignup(signup: Signup): Promise<void> {
    this.signups.set(signup.id, signup);
  }
  async deleteSignup(id: string): Promise<void> {
    this.signups.delete(id);
    for (const [participantId, participant] of this.participants) if (participant.signupId === id) this.participants.delete(participantId);
  }
  async saveParticipant(participant: Participant): Promise<void> {
    this.participants.set(participant.id, participant);
  }
  async markReminded(participantId: string, sentAt: string): Promise<void> {
    const participant = this.participants.get(participantId);
    if (participant && participant.remindedAt === null) this.participants.set(participantId, { ...participant, remindedAt: sentAt });
  }
  async signupIds(): Promise<string[]> {
    const hook = this.afterListing;
    this.afterListing = undefined;
    await hook?.();
    return [...this.signups.keys()];
  }
  async seen(eventId: string): Promise<boolean> {
    return this.applied.has(eventId);
  }
  async markSeen(eventId: string): Promise<void> {
    this.applied.add(eventId);
  }
  async loadState(): Promise<SyncState> {
    return this.state;
  }
  async saveState(state: SyncState): Promise<void> {
    this.state = state;
  }
}

/**
 * A signup as the copy and the list can both be compared: the list shows neither slots nor items,
 * and participantCount moves with registrations, which are no signup events.
 */
function comparable({ slots: _slots, items: _items, participantCount: _count, ...signup }: Signup) {
  return signup;
}

const byId = <T extends { id: string }>(records: Iterable<T>) => [...records].sort((a, b) => a.id.localeCompare(b.id));

/** What the API lists now: every signup, and every participant of each, cancelled ones included. */
export async function listed(api: SignupClient) {
  const signups: Signup[] = [];
  const participants: Participant[] = [];
  for await (const signup of api.paginate('/signups')) {
    signups.push(signup);
    for (const status of [undefined, 'cancelled'] as const)
      for await (const participant of api.paginate('/signups/{id}/participants', { params: { id: signup.id }, query: { status } }))
        participants.push(participant);
  }
  return { signups: byId(signups).map(comparable), participants: byId(participants) };
}

export function copyOf(store: MemoryStore) {
  return { signups: byId(store.signups.values()).map(comparable), participants: byId(store.participants.values()) };
}
