import type { ItemEventData, ItemView, SlotEventData, SlotView } from '#libs/contracts';
import type { PendingEvent } from '../common/pending-event.js';
import type { SignupRef } from './signup.js';
import type { Item, Slot, Target, Transition } from './slot-item.js';

/** Maps slots and items to the contract's views and events; livemode is their signup's. */
export function slotView(slot: Slot, livemode: boolean): SlotView {
  return {
    id: slot.id,
    title: slot.title,
    description: slot.description,
    startTime: slot.startTime?.toISOString() ?? null,
    endTime: slot.endTime?.toISOString() ?? null,
    capacity: slot.capacity,
    taken: slot.taken,
    remaining: slot.capacity - slot.taken,
    updatedAt: slot.updatedAt.toISOString(),
    livemode,
  };
}

export function itemView(item: Item, livemode: boolean): ItemView {
  return {
    id: item.id,
    name: item.name,
    notes: item.notes,
    quantityNeeded: item.quantityNeeded,
    quantityClaimed: item.quantityClaimed,
    remaining: item.quantityNeeded - item.quantityClaimed,
    livemode,
  };
}

const ownerOf = (signup: SignupRef) => ({ signupId: signup.id, organizationId: signup.organizationId, livemode: signup.livemode });
const metaOf = (signup: SignupRef, targetId: string) => ({ orgid: signup.organizationId, livemode: signup.livemode, subject: targetId });

/** slot.updated: the organizer edited the slot; it carries the slot as it is after the edit. */
export function slotUpdatedEvent(slot: Slot, signup: SignupRef): PendingEvent {
  const data: SlotEventData = { ...slotView(slot, signup.livemode), ...ownerOf(signup) };
  return { type: 'slot.updated', data, meta: metaOf(signup, slot.id) };
}

/** slot.filled / slot.opened / item.filled / item.opened for a target that just crossed its limit. */
export function transitionEvent(target: Target, transition: Transition, signup: SignupRef): PendingEvent {
  const owner = ownerOf(signup);
  const meta = metaOf(signup, target.id);
  if (target.kind === 'slot') {
    const data: SlotEventData = { ...slotView(target, signup.livemode), ...owner };
    return { type: transition === 'filled' ? 'slot.filled' : 'slot.opened', data, meta };
  }
  const data: ItemEventData = { ...itemView(target, signup.livemode), ...owner };
  return { type: transition === 'filled' ? 'item.filled' : 'item.opened', data, meta };
}
