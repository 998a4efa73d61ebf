import type { ExportedParticipant, ExportedSelection, ExportedWaitlistEntry } from '#libs/contracts';
import type { Signup } from '../signups/signup.js';
import type { Contents } from '../signups/slot-item.js';
import type { Participant } from './participant.js';

/** What an export's rows name: a slot's title and times, an item's name, by kind and id. */
export interface ExportTitles {
  signup: Pick<Signup, 'id' | 'title'>;
  targets: Map<string, { title: string; startTime: Date | null; endTime: Date | null }>;
}

export function exportTitlesOf(signup: Signup, contents: Contents): ExportTitles {
  const targets = new Map<string, { title: string; startTime: Date | null; endTime: Date | null }>();
  for (const slot of contents.slots)
    targets.set(`slot:${slot.id}`, { title: slot.title, startTime: slot.startTime, endTime: slot.endTime });
  for (const item of contents.items) targets.set(`item:${item.id}`, { title: item.name, startTime: null, endTime: null });
  return { signup, targets };
}

/** A participant as an export carries it: its selections and lines named, times as ISO instants. */
export function exportedParticipant(participant: Participant, titles: ExportTitles): ExportedParticipant {
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  const selections = participant.selections.map((s): ExportedSelection => {
    const target = titles.targets.get(`${s.type}:${s.id}`);
    return {
      type: s.type,
      id: s.id,
      title: target?.title ?? '',
      quantity: s.quantity,
      startTime: iso(target?.startTime ?? null),
      endTime: iso(target?.endTime ?? null),
    };
  });
  const waitlist = participant.waitlist.map((entry): ExportedWaitlistEntry => ({
    type: entry.kind,
    targetId: entry.targetId,
    title: entry.kind === 'signup' ? titles.signup.title : (titles.targets.get(`${entry.kind}:${entry.targetId}`)?.title ?? ''),
    quantity: entry.quantity,
    state: entry.state,
    position: entry.position,
    joinedAt: entry.joinedAt.toISOString(),
  }));
  return {
    id: participant.id,
    name: participant.name,
    email: participant.email,
    phone: participant.phone,
    status: participant.status,
    createdAt: participant.createdAt.toISOString(),
    selections,
    waitlist,
    answers: participant.answers,
    checkedInAt: iso(participant.checkedInAt),
    noShowAt: iso(participant.noShowAt),
    hoursServed: participant.hoursServed,
    remindedAt: iso(participant.remindedAt),
  };
}
