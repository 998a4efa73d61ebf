import { Injectable } from '@nestjs/common';
import { CreateItemsDto, CreateSlotsDto, type HandlersOf, requireUuid, UpdateItemDto, UpdateSlotDto, validateInput } from '#libs/contracts';
import { ownerOf } from './signup.js';
import { itemView, slotView } from './slot-item.presenter.js';
import { itemChanges, ManageSlotsItemsUseCase, slotChanges } from './usecases/manage-slots-items.usecase.js';

type SlotsItemsSubject = `signups.${'slots' | 'items'}.${'create' | 'list' | 'update' | 'delete'}`;

/**
 * signups.slots.* and signups.items.*: the organizer's slots and items. Writes need
 * signups:write, lists signups:read. Path ids are named after the REST parameters
 * (/signups/{id}/slots/{slotId}) in validation errors. Only the owner gets here, so the
 * caller's mode is the signup's: the views' livemode.
 */
@Injectable()
export class SlotsItemsHandlers {
  constructor(private readonly manage: ManageSlotsItemsUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, SlotsItemsSubject> {
    return {
      'signups.slots.create': async ({ principal, signupId, input }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId) };
        const { slots } = await validateInput(CreateSlotsDto, { slots: input });
        return { data: (await this.manage.createSlots(command, slots)).map((slot) => slotView(slot, principal.livemode)) };
      },
      'signups.slots.list': async ({ principal, signupId }) => {
        const slots = await this.manage.list({ owner: ownerOf(principal), signupId: requireUuid(signupId) }, 'slot');
        return { data: slots.map((slot) => slotView(slot, principal.livemode)) };
      },
      'signups.slots.update': async ({ principal, signupId, id, ifMatch, input }) => {
        const command = {
          owner: ownerOf(principal),
          signupId: requireUuid(signupId),
          kind: 'slot' as const,
          id: requireUuid(id, 'slotId'),
          ifMatch,
        };
        const valid = await validateInput(UpdateSlotDto, input);
        return slotView(await this.manage.update(command, slotChanges(valid)), principal.livemode);
      },
      'signups.slots.delete': async ({ principal, signupId, id, ifMatch }) => {
        const command = {
          owner: ownerOf(principal),
          signupId: requireUuid(signupId),
          kind: 'slot' as const,
          id: requireUuid(id, 'slotId'),
          ifMatch,
        };
        return slotView(await this.manage.delete(command), principal.livemode);
      },
      'signups.items.create': async ({ principal, signupId, input }) => {
        const command = { owner: ownerOf(principal), signupId: requireUuid(signupId) };
        const { items } = await validateInput(CreateItemsDto, { items: input });
        return { data: (await this.manage.createItems(command, items)).map((item) => itemView(item, principal.livemode)) };
      },
      'signups.items.list': async ({ principal, signupId }) => {
        const items = await this.manage.list({ owner: ownerOf(principal), signupId: requireUuid(signupId) }, 'item');
        return { data: items.map((item) => itemView(item, principal.livemode)) };
      },
      'signups.items.update': async ({ principal, signupId, id, ifMatch, input }) => {
        const command = {
          owner: ownerOf(principal),
          signupId: requireUuid(signupId),
          kind: 'item' as const,
          id: requireUuid(id, 'itemId'),
          ifMatch,
        };
        const valid = await validateInput(UpdateItemDto, input);
        return itemView(await this.manage.update(command, itemChanges(valid)), principal.livemode);
      },
      'signups.items.delete': async ({ principal, signupId, id, ifMatch }) => {
        const command = {
          owner: ownerOf(principal),
          signupId: requireUuid(signupId),
          kind: 'item' as const,
          id: requireUuid(id, 'itemId'),
          ifMatch,
        };
        return itemView(await this.manage.delete(command), principal.livemode);
      },
    };
  }
}
