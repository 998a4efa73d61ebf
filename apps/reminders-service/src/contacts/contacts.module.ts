import { Module } from '@nestjs/common';
import { ContactsRepository } from './contacts.repository.js';
import { ContactsProjection } from './contacts-projection.js';
import { MessageContexts } from './message-contexts.js';

/** The contacts projection: who can be reminded of which signup; and what the emails to participants need, from the signups-service. */
@Module({
  providers: [ContactsRepository, ContactsProjection, MessageContexts],
  exports: [ContactsRepository, ContactsProjection, MessageContexts],
})
export class ContactsModule {}
