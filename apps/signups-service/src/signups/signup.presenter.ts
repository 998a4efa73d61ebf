import { Inject, Injectable } from '@nestjs/common';
import type { PublicSignupView, QuestionView, SignupView } from '#libs/contracts';
import type { PendingEvent } from '../common/pending-event.js';
import type { Question } from './question.js';
import { acceptsRegistrations, spotsRemaining } from './registration-window.js';
import type { PublicSignup, Signup } from './signup.js';
import type { SignupEventType } from './signups.repository.js';
import type { Contents } from './slot-item.js';
import { itemView, slotView } from './slot-item.presenter.js';

/** The origin of PUBLIC_BASE_URL: public pages live at {origin}/s/{slug}. */
export const PUBLIC_ORIGIN = Symbol('PUBLIC_ORIGIN');

/** Maps domain signups to the contract's views and events. */
@Injectable()
export class SignupPresenter {
  constructor(@Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string) {}

  /** The list and event form. */
  view(signup: Signup): SignupView {
    return {
      ...this.shared(signup),
      status: signup.status,
      maxParticipants: signup.maxParticipants,
      reminderHoursBefore: signup.reminderHoursBefore,
      seriesId: signup.seriesId,
      organizationId: signup.organizationId,
      participantCount: signup.participantCount,
      createdAt: signup.createdAt.toISOString(),
      updatedAt: signup.updatedAt.toISOString(),
      publishedAt: signup.publishedAt?.toISOString() ?? null,
      closedAt: signup.closedAt?.toISOString() ?? null,
    };
  }

  /** The single-read form, with the signup's slots and items. */
  detail(signup: Signup, contents: Contents): SignupView {
    return { ...this.view(signup), ...this.contentsView(signup, contents) };
  }

  /** What anyone may see of a published or closed signup: what remains, never who signed up. */
  publicView(signup: PublicSignup, contents: Contents, now: Date): PublicSignupView {
    return {
      ...this.shared(signup),
      status: signup.status,
      updatedAt: signup.updatedAt.toISOString(),
      acceptingRegistrations: acceptsRegistrations(signup, now),
      spotsRemaining: spotsRemaining(signup),
      ...this.contentsView(signup, contents),
    };
  }

  /** The public page of a signup: {origin}/s/{slug}. */
  publicUrl(signup: Signup): string {
    return `${this.publicOrigin}/s/${signup.slug}`;
  }

  event(type: SignupEventType, signup: Signup): PendingEvent<SignupEventType> {
    return { type, data: this.view(signup), meta: { orgid: signup.organizationId, livemode: signup.livemode, subject: signup.id } };
  }

  private contentsView(signup: Signup, contents: Contents): Pick<PublicSignupView, 'slots' | 'items'> {
    return {
      slots: contents.slots.map((slot) => slotView(slot, signup.livemode)),
      items: contents.items.map((item) => itemView(item, signup.livemode)),
    };
  }

  /** The fields the organizer's and the public forms have in common. */
  private shared(signup: Signup) {
    return {
      id: signup.id,
      slug: signup.slug,
      title: signup.title,
      description: signup.description,
      eventDate: signup.eventDate.toISOString(),
      timeZone: signup.timeZone,
      location: signup.location,
      requiresPhone: signup.requiresPhone,
      signupCloseDate: signup.signupCloseDate?.toISOString() ?? null,
      waitlist: { ...signup.waitlist },
      questions: signup.questions.map(questionView),
      publicUrl: this.publicUrl(signup),
      livemode: signup.livemode,
    };
  }
}

function questionView(question: Question): QuestionView {
  return {
    id: question.id,
    type: question.type,
    label: question.label,
    required: question.required,
    options: question.options,
    min: question.min,
    max: question.max,
  };
}
