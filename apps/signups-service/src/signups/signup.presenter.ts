import { Inject, Injectable } from '@nestjs/common';
import type { SignupView } from '#libs/contracts';
import type { Signup } from './signup.js';
import type { PendingEvent, SignupEventType } from './signups.repository.js';

/** The origin of PUBLIC_BASE_URL: public pages live at {origin}/s/{slug}. */
export const PUBLIC_ORIGIN = Symbol('PUBLIC_ORIGIN');


/** Maps domain signups to the contract's views and events. */
@Injectable()
export class SignupPresenter {
  constructor(@Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string) {}

  /** The list and event form. */
  view(signup: Signup): SignupView {
    return {
      id: signup.id,
      slug: signup.slug,
      title: signup.title,
      description: signup.description,
      status: signup.status,
      eventDate: signup.eventDate.toISOString(),
      location: signup.location,
      maxParticipants: signup.maxParticipants,
      requiresPhone: signup.requiresPhone,
      signupCloseDate: signup.signupCloseDate?.toISOString() ?? null,
      organizationId: signup.organizationId,
      participantCount: signup.participantCount,
      publicUrl: `${this.publicOrigin}/s/${signup.slug}`,
      livemode: signup.livemode,
      createdAt: signup.createdAt.toISOString(),
      updatedAt: signup.updatedAt.toISOString(),
      publishedAt: signup.publishedAt?.toISOString() ?? null,
      closedAt: signup.closedAt?.toISOString() ?? null,
    };
  }

  /** The single-read form, with the signup's slots and items. */
  detail(signup: Signup): SignupView {
    return { ...this.view(signup), slots: [], items: [] };
  }

  event(type: SignupEventType, signup: Signup): PendingEvent {
    return { type, data: this.view(signup), meta: { orgid: signup.organizationId, livemode: signup.livemode, subject: signup.id } };
  }
}
