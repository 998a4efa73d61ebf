import { Module } from '@nestjs/common';
import { ContactsRepository } from './contacts.repository.js';
import { ContactsProjection } from './contacts-projection.js';

/** The contacts projection: who can be reminded of which signup. */
@Module({ providers: [ContactsRepository, ContactsProjection], exports: [ContactsRepository, ContactsProjection] })
export class ContactsModule {}
