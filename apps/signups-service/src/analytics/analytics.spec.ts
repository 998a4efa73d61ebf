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
      { count: 0, first: null, last: null },
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
      { count: 4, first: new Date('2026-01-01T00:00:00Z'), last: new Date('2026-01-01T10:00:00Z') },
    );
    expect(view.responseTime.averageHoursBetweenRegistrations).toBe(3.33);
  });
});
