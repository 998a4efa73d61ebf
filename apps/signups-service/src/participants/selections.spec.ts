import { deltasOf, duplicateErrors, lockOrder, normalizeSelections } from './selections.js';

const A = '0190f5d4-3c2a-7b1e-9a4f-00000000000a';
const B = '0190f5d4-3c2a-7b1e-9a4f-00000000000b';

describe('normalizeSelections', () => {
  it('lowercases ids and defaults the quantity to 1', () => {
    expect(
      normalizeSelections([
        { type: 'slot', id: A.toUpperCase() },
        { type: 'item', id: B, quantity: 3 },
      ]),
    ).toEqual([
      { type: 'slot', id: A, quantity: 1 },
      { type: 'item', id: B, quantity: 3 },
    ]);
  });
});

describe('duplicateErrors', () => {
  it('flags every later selection of the same slot or item on its own index', () => {
    const selections = normalizeSelections([
      { type: 'slot', id: A },
      { type: 'item', id: A },
      { type: 'slot', id: A.toUpperCase() },
      { type: 'slot', id: A, quantity: 2 },
    ]);
    expect(duplicateErrors(selections)).toEqual([
      { path: 'selections.2.id', message: 'Duplicate selection' },
      { path: 'selections.3.id', message: 'Duplicate selection' },
    ]);
  });

  it('accepts a slot and an item that share an id', () => {
    expect(
      duplicateErrors(
        normalizeSelections([
          { type: 'slot', id: A },
          { type: 'item', id: A },
        ]),
      ),
    ).toEqual([]);
  });
});

describe('lockOrder', () => {
  it('puts slots before items, each by id', () => {
    const sorted = [
      { type: 'item' as const, id: A },
      { type: 'slot' as const, id: B },
      { type: 'slot' as const, id: A },
    ].sort(lockOrder);
    expect(sorted).toEqual([
      { type: 'slot', id: A },
      { type: 'slot', id: B },
      { type: 'item', id: A },
    ]);
  });
});

describe('deltasOf', () => {
  it('nets what is given back against what is taken, drops unchanged ones and remembers the new index', () => {
    const before = [
      { type: 'slot' as const, id: A, quantity: 2 },
      { type: 'item' as const, id: B, quantity: 1 },
    ];
    const after = [
      { type: 'item' as const, id: A, quantity: 1 },
      { type: 'slot' as const, id: A, quantity: 3 },
      { type: 'item' as const, id: B, quantity: 1 },
    ];
    expect(deltasOf(before, after)).toEqual([
      { type: 'slot', id: A, delta: 1, index: 1 },
      { type: 'item', id: A, delta: 1, index: 0 },
    ]);
  });

  it('gives everything back when the new selections are empty', () => {
    expect(
      deltasOf(
        [
          { type: 'slot', id: B, quantity: 2 },
          { type: 'slot', id: A, quantity: 1 },
        ],
        [],
      ),
    ).toEqual([
      { type: 'slot', id: A, delta: -1 },
      { type: 'slot', id: B, delta: -2 },
    ]);
  });
});
