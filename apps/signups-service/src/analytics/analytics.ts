import type { AnalyticsView } from '#libs/contracts';
import { attendanceRate } from '../attendance/attendance.js';
import type { Contents, Kind } from '../signups/slot-item.js';

/** What the participants of a signup add to its analytics. */
export interface ParticipantStats {
  count: number;
  first: Date | null;
  last: Date | null;
  attended: number;
  noShow: number;
  /** Confirmed, neither checked in nor marked a no-show. */
  unmarked: number;
}

/** How many participants were created on one day (YYYY-MM-DD in the signup's zone). */
export interface RegistrationsOnDay {
  date: string;
  count: number;
}

/** The entries of one line of a signup (kind signup: its own line) by how they stand or ended. */
export interface LineStats {
  kind: Kind | 'signup';
  targetId: string;
  /** Waiting or offered. */
  waiting: number;
  promoted: number;
  expired: number;
}

const HOUR_MS = 3_600_000;

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** used / total, 0 when there is nothing to fill, to 4 decimals. */
function ratio(used: number, total: number): number {
  return total === 0 ? 0 : round(used / total, 4);
}

/**
 * A signup's analytics from its slots and items (their counts are kept exact by every write)
 * and its participants' registration times:
 * - fillRate over all slot places and item quantities together;
 * - gaps: the slots and items not yet full, the most short first (ties in creation order, slots first);
 * - averageHoursBetweenRegistrations: (last - first) / (count - 1), null with fewer than two;
 * - waiting per slot, item and the signup's own line (entries waiting or offered), promotions and
 *   offers expired over every line; the attendance rate and counts; registrations per day as counted.
 */
export function analyticsOf(
  signupId: string,
  contents: Contents,
  participants: ParticipantStats,
  lines: LineStats[],
  registrationsByDay: RegistrationsOnDay[],
): AnalyticsView {
  const waiting = (kind: LineStats['kind'], id: string) => lines.find((l) => l.kind === kind && l.targetId === id)?.waiting ?? 0;
  const slots = contents.slots.map((s) => ({
    id: s.id,
    title: s.title,
    capacity: s.capacity,
    registered: s.taken,
    ratio: ratio(s.taken, s.capacity),
    waiting: waiting('slot', s.id),
  }));
  const items = contents.items.map((i) => ({
    id: i.id,
    name: i.name,
    needed: i.quantityNeeded,
    claimed: i.quantityClaimed,
    ratio: ratio(i.quantityClaimed, i.quantityNeeded),
    waiting: waiting('item', i.id),
  }));
  const capacity = slots.reduce((sum, s) => sum + s.capacity, 0) + items.reduce((sum, i) => sum + i.needed, 0);
  const committed = slots.reduce((sum, s) => sum + s.registered, 0) + items.reduce((sum, i) => sum + i.claimed, 0);
  const gaps = [
    ...slots.map((s) => ({ kind: 'slot' as const, id: s.id, label: s.title, shortBy: s.capacity - s.registered })),
    ...items.map((i) => ({ kind: 'item' as const, id: i.id, label: i.name, shortBy: i.needed - i.claimed })),
  ]
    .filter((g) => g.shortBy > 0)
    .sort((a, b) => b.shortBy - a.shortBy);
  const { count, first, last, attended, noShow, unmarked } = participants;
  return {
    signupId,
    participantCount: count,
    quantityCommitted: committed,
    fillRate: { capacity, ratio: ratio(committed, capacity) },
    slots,
    items,
    gaps,
    responseTime: {
      firstRegistrationAt: first?.toISOString() ?? null,
      lastRegistrationAt: last?.toISOString() ?? null,
      averageHoursBetweenRegistrations:
        count >= 2 && first && last ? round((last.getTime() - first.getTime()) / HOUR_MS / (count - 1), 2) : null,
    },
    waitlist: {
      waiting: waiting('signup', signupId),
      promotions: lines.reduce((sum, l) => sum + l.promoted, 0),
      offersExpired: lines.reduce((sum, l) => sum + l.expired, 0),
    },
    attendanceRate: attendanceRate(attended, noShow),
    attendance: { attended, noShow, unmarked },
    registrationsByDay,
  };
}
