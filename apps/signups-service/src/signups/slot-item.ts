import type { SelectionType } from '#libs/contracts';

/** What a selection can point at: a slot (places) or an item (quantities). */
export type Kind = SelectionType;

/** A time slot with a number of places. */
export interface Slot {
  kind: 'slot';
  id: string;
  signupId: string;
  title: string;
  description: string | null;
  startTime: Date | null;
  endTime: Date | null;
  capacity: number;
  taken: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Something to bring, with the quantity needed. */
export interface Item {
  kind: 'item';
  id: string;
  signupId: string;
  name: string;
  notes: string | null;
  quantityNeeded: number;
  quantityClaimed: number;
  createdAt: Date;
  updatedAt: Date;
}

export type Target = Slot | Item;
export type TargetOf<K extends Kind> = Extract<Target, { kind: K }>;

/** The slots and items of one signup, each in creation order. */
export interface Contents {
  slots: Slot[];
  items: Item[];
}

/** A slot's or item's limit, what is taken of it and its name, whatever its kind. */
export interface Stock {
  label: string;
  total: number;
  used: number;
}

export function stockOf(target: Target): Stock {
  return target.kind === 'slot'
    ? { label: target.title, total: target.capacity, used: target.taken }
    : { label: target.name, total: target.quantityNeeded, used: target.quantityClaimed };
}

export function isFull(stock: Pick<Stock, 'total' | 'used'>): boolean {
  return stock.used >= stock.total;
}

/** filled: it was not full and now is; opened: it was full and now has room. */
export type Transition = 'filled' | 'opened';

export function transitionOf(before: Pick<Stock, 'total' | 'used'>, after: Pick<Stock, 'total' | 'used'>): Transition | undefined {
  if (!isFull(before) && isFull(after)) return 'filled';
  if (isFull(before) && !isFull(after)) return 'opened';
  return undefined;
}

/** "Slot “Setup”" / "Item “Salad”", for messages. */
export function targetName(kind: Kind, label: string): string {
  return `${kind === 'slot' ? 'Slot' : 'Item'} “${label}”`;
}

/** Why a slot or item cannot take `asked` more: what is left of it, in words. */
export function shortageMessage(kind: Kind, stock: Stock, asked: number): string {
  const left = Math.max(0, stock.total - stock.used);
  const name = targetName(kind, stock.label);
  if (left === 0) return kind === 'slot' ? `${name} is full.` : `${name} is fully claimed.`;
  return kind === 'slot'
    ? `${name} has ${left} ${left === 1 ? 'place' : 'places'} left; ${asked} asked for.`
    : `${name} needs only ${left} more; ${asked} offered.`;
}

export function notFoundMessage(kind: Kind): string {
  return `No ${kind} with this id in this signup.`;
}
