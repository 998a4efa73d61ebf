import { ItemListView, ItemView, SlotListView, SlotView } from '#libs/contracts';
import { AddItemsArgs, AddSlotsArgs, UpdateItemArgs, UpdateSlotArgs } from './args.js';
import { ADD, CHANGE, defineTool } from './tool.js';

export const SLOT_ITEM_TOOLS = [
  defineTool({
    name: 'add_slots',
    title: 'Add time slots',
    description:
      'Adds time slots (shifts) to a signup, up to 100 in one call, all or none: each has a title and a capacity (places), and optionally a ' +
      'description and start and end times (ISO 8601 with a time zone). Answers the created slots with their ids.',
    subject: 'signups.slots.create',
    input: AddSlotsArgs,
    output: SlotListView,
    hints: ADD,
    run: ({ signupId, slots }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), input: slots.map((slot) => ({ ...slot })) }),
  }),
  defineTool({
    name: 'update_slot',
    title: 'Update a time slot',
    description:
      'Changes the fields given of one slot; null clears description, startTime or endTime. Capacity may not drop below the places ' +
      'already taken (conflict).',
    subject: 'signups.slots.update',
    input: UpdateSlotArgs,
    output: SlotView,
    hints: CHANGE,
    run: ({ signupId, slotId, ...input }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: slotId.toLowerCase(), input }),
  }),
  defineTool({
    name: 'add_items',
    title: 'Add items to bring',
    description:
      'Adds items people can bring (dishes, supplies) to a signup, up to 100 in one call, all or none: each has a name and quantityNeeded, ' +
      'and optionally notes. Answers the created items with their ids.',
    subject: 'signups.items.create',
    input: AddItemsArgs,
    output: ItemListView,
    hints: ADD,
    run: ({ signupId, items }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), input: items.map((item) => ({ ...item })) }),
  }),
  defineTool({
    name: 'update_item',
    title: 'Update an item',
    description:
      'Changes the fields given of one item; null clears notes. quantityNeeded may not drop below the quantity already claimed (conflict).',
    subject: 'signups.items.update',
    input: UpdateItemArgs,
    output: ItemView,
    hints: CHANGE,
    run: ({ signupId, itemId, ...input }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: itemId.toLowerCase(), input }),
  }),
];
