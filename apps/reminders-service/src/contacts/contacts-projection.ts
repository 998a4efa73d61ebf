import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from '#libs/bus';
import type { CloudEvent, EventMap, EventType } from '#libs/contracts';
import { APP_CONTEXT, consumeOnceFor, type AppContext } from '#libs/runtime';
import { ContactsRepository } from './contacts.repository.js';

const SIGNUP_EVENTS = ['signup.created', 'signup.updated', 'signup.published', 'signup.closed', 'signup.deleted'] as const satisfies readonly EventType[];
const PARTICIPANT_EVENTS = ['participant.registered', 'participant.updated', 'participant.canceled'] as const satisfies readonly EventType[];

function isSignupEvent(event: CloudEvent): event is CloudEvent<(typeof SIGNUP_EVENTS)[number]> {
  return (SIGNUP_EVENTS as readonly string[]).includes(event.type);
}

/**
 * Keeps the contacts projection from the signups-service's events: a durable consumer shared by
 * the replicas, each event applied once (by id) in its own transaction. After a restart it goes
 * on from the last event applied.
 */
@Injectable()
export class ContactsProjection implements OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    private readonly contacts: ContactsRepository,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
  ) {}

  async start(): Promise<void> {
    this.subscription = await consumeOnceFor(
      this.context,
      { consumer: 'reminders-contacts', types: [...SIGNUP_EVENTS, ...PARTICIPANT_EVENTS] },
      (manager, event) =>
        isSignupEvent(event)
          ? this.contacts.applySignup(manager, event, event.data)
          : this.contacts.applyParticipant(manager, event, event.data as EventMap['participant.registered']),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
