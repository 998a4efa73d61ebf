import { Body, Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import { participantEvents, uidHost } from '#libs/calendar';
import {
  isUuid,
  missingRequiredPhone,
  type PublicSignupView,
  RegistrationDto,
  type RegistrationInput,
  type RegistrationResultView,
  type RegistrationView,
  UpdateRegistrationDto,
  type UpdateRegistrationInput,
  validateInput,
} from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { isProblemError, ProblemError } from '#libs/problem';
import { APP_CONFIG, BUS, LOGGER } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import type { SafeHtml } from '#libs/web';
import type { GatewayConfig } from '../gateway.config.js';
import { isConfirmationToken, isSlugOrId } from '../http/public-params.js';
import { ANSWER_FORM_MAX_LENGTH, changedQuestions, questionField, readAnswers, readChecked } from './page-answers.js';
import {
  choicesOf,
  emptyForm,
  FORM_VALUE_MAX_LENGTH,
  type FormState,
  hasErrors,
  movedLocation,
  placeErrors,
  quantityField,
  readForm,
  readMove,
  readOutcome,
  readSelections,
  registeredLocation,
  savedLocation,
  type WaitlistMove,
  waitsForSignup,
} from './page-form.js';
import { type Rendered, respondWithPage } from './page-response.js';
import {
  canceledPage,
  changeClosure,
  type Notice,
  registrationForm,
  registrationPage,
  type RegistrationPageOptions,
  seeOtherPage,
  signupPage,
} from './views.js';

/** The page routes, outside the REST prefix. */
export const PAGE_ROUTES = [
  's/:slug',
  'r/:token',
  'r/:token/cancel',
  'r/:token/waitlist/:entryId/accept',
  'r/:token/waitlist/:entryId/leave',
];

/** Post/Redirect/Get: a stored form answers 303 to the page that shows the outcome, so reloading it repeats nothing. */
const seeOther = (location: string): Rendered => ({ status: 303, page: seeOtherPage(location), location });

const REGISTRATION_FIELDS = ['name', 'email', 'phone'] as const;
const NOT_SIGNED_UP: Notice = { kind: 'error', text: 'You are not signed up: this signup takes no registrations now.' };
const NOT_SAVED: Notice = { kind: 'error', text: 'Your changes were not saved: this registration can no longer be changed here.' };
const UPDATE_FIELDS = ['name', 'phone'] as const;
/** A question's text may be as long as a long answer; every other field is cut at FORM_VALUE_MAX_LENGTH. */
const maxLengthOf = (key: string): number => (key.startsWith('q-') ? ANSWER_FORM_MAX_LENGTH : FORM_VALUE_MAX_LENGTH);
/** The form's fields, the signup's questions' included. */
const fieldsOf = (names: readonly string[], signup: PublicSignupView): string[] => [...names, ...signup.questions.map(questionField)];
const NOT_SAVED_CANCELED: Notice = { kind: 'error', text: 'Your changes were not saved: this registration is canceled.' };
const MOVED: Record<WaitlistMove, Notice> = {
  accept: { kind: 'success', text: 'You accepted the place: it is yours.' },
  leave: { kind: 'success', text: 'You left the waitlist.' },
};
const MOVE_REFUSED: Record<WaitlistMove, string> = {
  accept: 'The place was not accepted.',
  leave: 'You did not leave the waitlist.',
};

/**
 * Server-rendered pages for people (no JavaScript): the public signup page with its form, and
 * the page behind a confirmation token to change or cancel a registration, and to accept or leave
 * its places in line. They call the same bus subjects as the REST API, anonymously.
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  private readonly origin: string;
  private readonly calendarHost: string;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) config: GatewayConfig,
  ) {
    this.origin = new URL(config.publicBaseUrl).origin;
    this.calendarHost = uidHost(config.publicBaseUrl);
  }

  @Get('s/:slug')
  @Auth.public()
  signup(@Param('slug') slug: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.respond(reply, async () => ({ status: 200, page: signupPage(await this.publicSignup(slug), emptyForm()) }));
  }

  @Post('s/:slug')
  @Auth.public()
  register(@Param('slug') slug: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.respond(reply, async () => {
      const signup = await this.publicSignup(slug);
      // A signup that takes no registration says so before anything entered is looked at.
      if (!signup.acceptingRegistrations) return { status: 400, page: signupPage(signup, emptyForm(), NOT_SIGNED_UP) };
      const values = readForm(body, maxLengthOf);
      const checked = readChecked(body, signup.questions);
      const form = emptyForm(values, checked);
      const { selections, fields, errors } = readSelections(choicesOf(signup), values);
      const answers = readAnswers(signup.questions, values, checked);
      Object.assign(form.errors, errors, answers.errors);
      const phone = values.phone?.trim();
      const input: RegistrationInput = {
        name: values.name?.trim() ?? '',
        email: values.email?.trim() ?? '',
        ...(phone && { phone }),
        selections,
        answers: answers.answers,
      };
      const names = fieldsOf(REGISTRATION_FIELDS, signup);
      await this.check(form, RegistrationDto, input, fields, names);
      if (missingRequiredPhone(signup, Boolean(phone)) && !form.errors.phone) form.errors.phone = ['Required'];
      if (hasErrors(form)) return { status: 422, page: signupPage(signup, form) };

      let result: RegistrationResultView;
      try {
        result = await this.bus.request('signups.participants.register', { signupId: signup.id, input });
      } catch (err) {
        return this.refusal(err, form, fields, names, async (status, notice) => ({
          status,
          page: signupPage(await this.publicSignup(slug), form, notice),
        }));
      }
      if (result.confirmationToken === undefined) {
        form.summary.push('Nothing could be reserved, so you are not signed up:', ...result.failed.map((f) => f.message));
        return { status: 409, page: signupPage(await this.publicSignup(slug), form) };
      }
      const requested = new Map(selections.map((s) => [quantityField(s.type, s.id), s.quantity ?? 1]));
      const failed = result.failed.map((f) => ({
        type: f.type,
        id: f.id,
        quantity: requested.get(quantityField(f.type, f.id.toLowerCase())) ?? 1,
      }));
      return seeOther(registeredLocation(result.confirmationToken, failed));
    });
  }

  @Get('r/:token')
  @Auth.public()
  registration(@Param('token') token: string, @Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.respond(reply, async () => {
      const view = await this.registrationOf(token);
      const outcome = readOutcome(query);
      const move = readMove(query);
      if (view.participant.status === 'cancelled') return { status: 200, page: canceledPage(view, move && MOVED[move]) };
      const page = this.manage(view, token, registrationForm(view), {
        ...(outcome.registered && { registered: { manageUrl: `${this.origin}/r/${token}`, failed: outcome.failed } }),
        ...(outcome.saved && { notice: { kind: 'success', text: 'Your changes are saved.' } }),
        ...(move && { notice: MOVED[move] }),
      });
      return { status: 200, page };
    });
  }

  @Post('r/:token')
  @Auth.public()
  update(@Param('token') token: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.respond(reply, async () => {
      const view = await this.registrationOf(token);
      // A registration that can no longer change says so before anything entered is looked at.
      if (view.participant.status === 'cancelled') return { status: 409, page: canceledPage(view, NOT_SAVED_CANCELED) };
      if (changeClosure(view.signup) !== undefined) {
        return { status: 400, page: this.manage(view, token, registrationForm(view), { notice: NOT_SAVED }) };
      }
      const values = readForm(body, maxLengthOf);
      const checked = readChecked(body, view.signup.questions);
      const form = emptyForm(values, checked);
      // One waiting for a place in the signup has no quantity fields: its selections stay as they are.
      const selecting = !waitsForSignup(view.participant);
      const { selections, fields, errors } = readSelections(selecting ? choicesOf(view.signup) : [], values);
      // Only the answers the form changed: one given before its question changed stays as it was.
      const changed = changedQuestions(view.signup.questions, view.participant.answers, values, checked);
      const answers = readAnswers(changed, values, checked, view.participant.answers);
      Object.assign(form.errors, errors, answers.errors);
      const phone = values.phone?.trim();
      const input: UpdateRegistrationInput = {
        name: values.name?.trim() ?? '',
        phone: phone || null,
        ...(selecting && { selections }),
        answers: { ...answers.answers, ...Object.fromEntries(answers.cleared.map((id) => [id, null])) },
      };
      const names = fieldsOf(UPDATE_FIELDS, view.signup);
      await this.check(form, UpdateRegistrationDto, input, fields, names);
      if (missingRequiredPhone(view.signup, Boolean(phone)) && !form.errors.phone) form.errors.phone = ['Required'];
      if (hasErrors(form)) return { status: 422, page: this.manage(view, token, form) };
      try {
        await this.bus.request('signups.registrations.update', { token, input });
      } catch (err) {
        return this.refusal(err, form, fields, names, async (status, notice) => ({
          status,
          page: this.manage(await this.registrationOf(token), token, form, { notice }),
        }));
      }
      return seeOther(savedLocation(token));
    });
  }

  @Post('r/:token/cancel')
  @Auth.public()
  cancel(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.respond(reply, async () => {
      if (!isConfirmationToken(token)) throw new ProblemError('not_found');
      try {
        return { status: 200, page: canceledPage(await this.bus.request('signups.registrations.cancel', { token })) };
      } catch (err) {
        if (isProblemError(err) && err.code === 'bad_request') {
          const view = await this.registrationOf(token);
          const notice = { kind: 'error', text: err.detail ?? 'The registration cannot be canceled now.' } as const;
          return { status: 400, page: this.manage(view, token, registrationForm(view), { notice }) };
        }
        throw err;
      }
    });
  }

  @Post('r/:token/waitlist/:entryId/accept')
  @Auth.public()
  accept(
    @Param('token') token: string,
    @Param('entryId') entryId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.respond(reply, () => this.move('accept', token, entryId));
  }

  @Post('r/:token/waitlist/:entryId/leave')
  @Auth.public()
  leave(
    @Param('token') token: string,
    @Param('entryId') entryId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return this.respond(reply, () => this.move('leave', token, entryId));
  }

  /**
   * Accepts the offer of a line, or leaves it (declining its offer), then shows the registration
   * (Post/Redirect/Get). An offer that expired or is not offered (409), or a registration that can
   * no longer change (400), is said above the registration as it now is.
   */
  private async move(move: WaitlistMove, token: string, entryId: string): Promise<Rendered> {
    if (!isConfirmationToken(token) || !isUuid(entryId)) throw new ProblemError('not_found');
    try {
      await this.bus.request(`signups.registrations.${move}`, { token, entryId: entryId.toLowerCase() });
    } catch (err) {
      if (!isProblemError(err) || (err.code !== 'conflict' && err.code !== 'bad_request')) throw err;
      const view = await this.registrationOf(token);
      const notice: Notice = { kind: 'error', text: `${MOVE_REFUSED[move]} ${err.detail ?? 'This cannot be done right now.'}` };
      const page =
        view.participant.status === 'cancelled' ? canceledPage(view, notice) : this.manage(view, token, registrationForm(view), { notice });
      return { status: err.status, page };
    }
    return seeOther(movedLocation(token, move));
  }

  /** The manage page of a registration, with its add-to-calendar links. */
  private manage(
    view: RegistrationView,
    token: string,
    form: FormState,
    options: Omit<RegistrationPageOptions, 'calendar'> = {},
  ): SafeHtml {
    const calendar = participantEvents(view.signup, view.participant, this.calendarHost);
    return registrationPage(view, token, form, { ...options, calendar });
  }

  private publicSignup(slug: string): Promise<PublicSignupView> {
    if (!isSlugOrId(slug)) throw new ProblemError('not_found');
    return this.bus.request('signups.public.get', { slugOrId: slug });
  }

  private registrationOf(token: string): Promise<RegistrationView> {
    if (!isConfirmationToken(token)) throw new ProblemError('not_found');
    return this.bus.request('signups.registrations.get', { token });
  }

  /** Validates what the form built against the REST body's DTO, putting messages next to fields. */
  private async check(form: FormState, dto: new () => object, input: object, fields: string[], names: readonly string[]): Promise<void> {
    try {
      await validateInput(dto, input);
    } catch (err) {
      if (!isProblemError(err) || err.code !== 'validation_failed') throw err;
      placeErrors(form, err.errors ?? [], fields, names);
    }
  }

  /** The service refused: its validation messages go next to the fields, a state problem above the form. */
  private async refusal(
    err: unknown,
    form: FormState,
    fields: string[],
    names: readonly string[],
    rerender: (status: number, notice?: { kind: 'error'; text: string }) => Promise<Rendered>,
  ): Promise<Rendered> {
    if (!isProblemError(err)) throw err;
    if (err.code === 'validation_failed') {
      placeErrors(form, err.errors ?? [], fields, names);
      return rerender(422);
    }
    if (err.code === 'bad_request' || err.code === 'conflict') {
      return rerender(err.status, { kind: 'error', text: err.detail ?? 'This cannot be done right now.' });
    }
    throw err;
  }

  /** Sends a page with the page headers; not found and failures become pages too, never JSON. */
  private respond(reply: FastifyReply, render: () => Promise<Rendered>): Promise<string> {
    return respondWithPage(reply, this.logger, render);
  }
}
