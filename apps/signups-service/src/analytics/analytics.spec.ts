import type { Item, Slot } from '../signups/slot-item.js';
import { analyticsOf } from './analytics.js';

const at = new Date('2026-01-01T00:00:00Z');
const slot = (id: string, capacity: number, taken: number): Slot => ({
  kind: 'slot',
  id,
  signupId: 's',
  title: id,
  description: null,
  startTime: null,
  endTime: null,
  capacity,
  taken,
  createdAt: at,
  updatedAt: at,
});
const item = (id: string, quantityNeeded: number, quantityClaimed: number): Item => ({
  kind: 'item',
  id,
  signupId: 's',
  name: id,
  notes: null,
  quantityNeeded,
  quantityClaimed,
  createdAt: at,
  updatedAt: at,
});

describe('analyticsOf', () => {
  it('orders gaps by how short they are, slots before items on a tie, and leaves out what is full', () => {
    const view = analyticsOf(
      's',
      { slots: [slot('a', 2, 1), slot('b', 5, 0), slot('c', 1, 1)], items: [item('x', 3, 2), item('y', 6, 1)] },
      { count: 0, first: null, last: null, attended: 0, noShow: 0, unmarked: 0 },
      [],
      [],
    );
    expect(view.gaps.map((g) => [g.id, g.shortBy])).toEqual([
      ['b', 5],
      ['y', 5],
      ['a', 1],
      ['x', 1],
    ]);
    expect(view.fillRate).toEqual({ capacity: 17, ratio: 0.2941 });
    expect(view.quantityCommitted).toBe(5);
  });

  it('averages the hours between the first and last registration over the gaps between them', () => {
    const view = analyticsOf(
      's',
      { slots: [], items: [] },
      { count: 4, first: new Date('2026-01-01T00:00:00Z'), last: new Date('2026-01-01T10:00:00Z'), attended: 0, noShow: 0, unmarked: 0 },
      [],
      [],
    );
    expect(view.responseTime.averageHoursBetweenRegistrations).toBe(3.33);
  });

  it("counts each line's waiting entries on its slot, item or the signup, promotions and expired offers over every line", () => {
    const view = analyticsOf(
      's',
      { slots: [slot('a', 1, 1)], items: [item('x', 1, 1)] },
      { count: 5, first: null, last: null, attended: 2, noShow: 1, unmarked: 1 },
      [
        { kind: 'slot', targetId: 'a', waiting: 3, promoted: 1, expired: 0 },
        { kind: 'item', targetId: 'x', waiting: 0, promoted: 2, expired: 1 },
        { kind: 'signup', targetId: 's', waiting: 4, promoted: 0, expired: 2 },
      ],
      [],
    );
    expect(view.slots.map((s) => s.waiting)).toEqual([3]);
    expect(view.items.map((i) => i.waiting)).toEqual([0]);
    expect(view.waitlist).toEqual({ waiting: 4, promotions: 3, offersExpired: 3 });
    expect(view.attendanceRate).toBe(0.6667);
    expect(view.attendance).toEqual({ attended: 2, noShow: 1, unmarked: 1 });
  });
});
