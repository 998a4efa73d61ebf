import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CloudEvent, type DurableEventType, DURABLES, type EventType } from '#libs/contracts';
import { APP_CONTEXT, type AppContext, EventConsumer } from '#libs/runtime';
import { ContactsRepository } from './contacts.repository.js';

const SIGNUP_EVENTS = [
  'signup.created',
  'signup.updated',
  'signup.published',
  'signup.closed',
  'signup.deleted',
] as const satisfies readonly EventType[];

type ContactsEvent = CloudEvent<DurableEventType<'reminders-contacts'>>;

function isSignupEvent(event: ContactsEvent): event is CloudEvent<(typeof SIGNUP_EVENTS)[number]> {
  return (SIGNUP_EVENTS as readonly string[]).includes(event.type);
}

/**
 * Keeps the contacts projection from the signups-service's events: a durable consumer shared by
 * the replicas, each event applied once (by id), in the transaction of its batch (consumeOnce).
 * After a restart it goes on from the last event applied.
 */
@Injectable()
export class ContactsProjection extends EventConsumer<DurableEventType<'reminders-contacts'>> {
  constructor(
    private readonly contacts: ContactsRepository,
    @Inject(APP_CONTEXT) context: AppContext,
  ) {
    super(context, { consumer: DURABLES['reminders-contacts'].durable, types: DURABLES['reminders-contacts'].types });
  }

  protected apply(manager: EntityManager, event: ContactsEvent): Promise<void> {
    return isSignupEvent(event)
      ? this.contacts.applySignup(manager, event, event.data)
      : this.contacts.applyParticipant(manager, event, event.data);
  }
}
