import { shortageMessage, transitionOf } from './slot-item.js';

describe('transitionOf', () => {
  it('is filled when the last place goes and opened when a full one gets room', () => {
    expect(transitionOf({ total: 3, used: 2 }, { total: 3, used: 3 })).toBe('filled');
    expect(transitionOf({ total: 3, used: 3 }, { total: 3, used: 2 })).toBe('opened');
    expect(transitionOf({ total: 3, used: 3 }, { total: 4, used: 3 })).toBe('opened');
    expect(transitionOf({ total: 4, used: 3 }, { total: 3, used: 3 })).toBe('filled');
  });

  it('is nothing when fullness does not change', () => {
    expect(transitionOf({ total: 3, used: 1 }, { total: 3, used: 2 })).toBeUndefined();
    expect(transitionOf({ total: 3, used: 3 }, { total: 3, used: 3 })).toBeUndefined();
  });
});

describe('shortageMessage', () => {
  it('says what is left of a slot or item', () => {
    expect(shortageMessage('slot', { label: 'Setup', total: 3, used: 3 }, 1)).toBe('Slot “Setup” is full.');
    expect(shortageMessage('slot', { label: 'Setup', total: 3, used: 2 }, 2)).toBe('Slot “Setup” has 1 place left; 2 asked for.');
    expect(shortageMessage('item', { label: 'Cake', total: 3, used: 3 }, 1)).toBe('Item “Cake” is fully claimed.');
    expect(shortageMessage('item', { label: 'Cake', total: 3, used: 1 }, 4)).toBe('Item “Cake” needs only 2 more; 4 offered.');
  });
});
