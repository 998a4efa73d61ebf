import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AnalyticsView, SIGNUP_STATUSES, type SignupStatus, type SignupView } from '#libs/contracts';
import { type ProblemBody, ProblemError } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import type { ApiAnswer } from './api.js';
import { type Caller, DashboardService, idOf, type Rendered, seeOther } from './dashboard.service.js';
import { qrPng, qrSvg } from './qr-code.js';
import {
  choiceRequest,
  choiceValues,
  kindOf,
  newSignupFormValues,
  placeFieldErrors,
  questionRowsOf,
  signupFormValues,
  signupRequest,
} from './signup-form.js';
import { analyticsPage } from './views/analytics.js';
import { emptyFormView, type FormView } from './views/fields.js';
import { confirmPage, type Notice, problemText } from './views/frame.js';
import { choiceFormPage, duplicatePage, signupFormPage, signupPage, signupsListPage } from './views/signups.js';
import { instantFromLocal } from './wall-time.js';

const NOTICES: Record<string, Notice> = {
  created: { kind: 'success', text: 'Signup created. Add slots or items, then publish it.' },
  'created-partly': { kind: 'error', text: 'The signup was created, but some of its slots or items were not: add them below.' },
  saved: { kind: 'success', text: 'Changes saved.' },
  published: { kind: 'success', text: 'Published: share the link below.' },
  closed: { kind: 'success', text: 'Registrations are closed.' },
  deleted: { kind: 'success', text: 'Signup deleted.' },
  duplicated: { kind: 'success', text: 'Copies created as drafts.' },
  'slot-added': { kind: 'success', text: 'Slot added.' },
  'item-added': { kind: 'success', text: 'Item added.' },
  removed: { kind: 'success', text: 'Removed.' },
};

const noticeOf = (done: unknown): Notice | undefined => (typeof done === 'string' ? NOTICES[done] : undefined);
const isStatus = (value: unknown): value is SignupStatus => SIGNUP_STATUSES.includes(value as SignupStatus);
/** A cursor is opaque, but never long (the API refuses it anyway). */
const cursorOf = (cursor: unknown): string | undefined => (typeof cursor === 'string' && cursor.length <= 512 ? cursor : undefined);
const notFound = (): ProblemError => new ProblemError('not_found', 'No such slot or item.');
const page = (status: number, rendered: Rendered['page']): Rendered => ({ status, page: rendered });

/** The signups of the organization: list, create, edit, publish, close, delete, duplicate, slots and items, sharing.
 * Not metered as anonymous calls: without a session a page only redirects to sign in, and with
 * one every call it makes to the REST API counts against the user's grant.
 */
@ApiExcludeController()
@Controller('app/signups')
@Auth.public()
@Unmetered()
export class SignupsPagesController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const status = isStatus(query.status) ? query.status : undefined;
      const cursor = cursorOf(query.cursor);
      const params = new URLSearchParams({ limit: '50', ...(status && { status }), ...(cursor && { cursor }) });
      const answer = await api<{ data: SignupView[]; nextCursor: string | null }>('GET', `/signups?${params}`);
      return page(
        200,
        signupsListPage(viewer, answer.body.data, { status, nextCursor: answer.body.nextCursor, notice: noticeOf(query.done) }),
      );
    });
  }

  @Get('new')
  newForm(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer }) =>
      page(200, signupFormPage(viewer, emptyFormView(newSignupFormValues(viewer.organization.timeZone)), { questionCount: 0 })),
    );
  }

  @Post()
  create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, call }) => {
      const { input, questionRows } = signupRequest(form, false);
      const answer = await call<SignupView>('POST', '/signups', input);
      if (answer.status === 201) return seeOther(`/app/signups/${answer.body.id}?done=created`);
      return page(answer.status, signupFormPage(viewer, this.refused(form, answer, questionRows), { questionCount: questionRowsOf(form) }));
    });
  }

  @Get(':id')
  show(@Param('id') id: string, @Query('done') done: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      return page(200, signupPage(viewer, signup.body, noticeOf(done)));
    });
  }

  @Get(':id/analytics')
  analytics(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const analytics = await api<AnalyticsView>('GET', `/signups/${signup.body.id}/analytics`);
      return page(200, analyticsPage(viewer, signup.body, analytics.body));
    });
  }

  @Get(':id/edit')
  editForm(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      return page(
        200,
        signupFormPage(viewer, emptyFormView(signupFormValues(signup.body)), {
          signup: signup.body,
          questionCount: signup.body.questions.length,
          etag: String(signup.headers.etag ?? ''),
        }),
      );
    });
  }

  /** Saves only if nobody changed the signup since the form was shown (If-Match): else the form shows it as it is now. */
  @Post(':id/edit')
  edit(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, call, api }) => {
      const { input, questionRows } = signupRequest(form, true);
      const answer = await call<SignupView>('PATCH', `/signups/${idOf(id)}`, input, form.etag ? { 'if-match': form.etag } : {});
      if (answer.status === 200) return seeOther(`/app/signups/${answer.body.id}?done=saved`);
      const current = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const etag = String(current.headers.etag ?? '');
      if (answer.status === 412) {
        const fresh = emptyFormView(signupFormValues(current.body));
        fresh.errors.title = [problemText(answer.body as unknown as ProblemBody)];
        return page(409, signupFormPage(viewer, fresh, { signup: current.body, questionCount: current.body.questions.length, etag }));
      }
      return page(
        answer.status,
        signupFormPage(viewer, this.refused(form, answer, questionRows), {
          signup: current.body,
          questionCount: questionRowsOf(form),
          // The form's own ETag: a change someone made meanwhile is still caught at the next save.
          etag: form.etag ?? etag,
        }),
      );
    });
  }

  @Post(':id/publish')
  publish(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.transition(req, reply, id, 'publish', 'published');
  }

  @Post(':id/close')
  close(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.transition(req, reply, id, 'close', 'closed');
  }

  @Get(':id/delete')
  confirmRemove(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = (await api<SignupView>('GET', `/signups/${idOf(id)}`)).body;
      return page(
        200,
        confirmPage(viewer, 'signups', {
          title: `Delete ${signup.title}?`,
          consequence: `The signup, its slots, items and ${signup.participantCount} registrations are deleted. This cannot be undone.`,
          action: `/app/signups/${signup.id}/delete`,
          button: 'Delete the signup',
          back: `/app/signups/${signup.id}`,
        }),
      );
    });
  }

  @Post(':id/delete')
  remove(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('DELETE', `/signups/${idOf(id)}`);
      return seeOther('/app/signups?done=deleted');
    });
  }

  @Get(':id/duplicate')
  duplicateForm(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      return page(200, duplicatePage(viewer, signup.body, emptyFormView({ frequency: 'once', count: '4' })));
    });
  }

  @Post(':id/duplicate')
  duplicate(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, api, call }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const frequency = ['daily', 'weekly', 'monthly'].includes(form.frequency ?? '') ? form.frequency : undefined;
      const body = frequency
        ? { recurrence: { frequency, interval: 1, count: /^\d{1,3}$/.test(form.count ?? '') ? Number(form.count) : form.count } }
        : { eventDate: instantFromLocal(form.eventDate ?? '', signup.body.timeZone) ?? form.eventDate ?? '' };
      const answer = await call('POST', `/signups/${signup.body.id}/duplicate`, body);
      if (answer.status === 201) return seeOther('/app/signups?done=duplicated');
      const errors = placeFieldErrors(form, (answer.body as ProblemBody).errors, [], frequency ? 'count' : 'eventDate');
      if (!(answer.body as ProblemBody).errors?.length)
        errors.errors[frequency ? 'count' : 'eventDate'] = [problemText(answer.body as ProblemBody)];
      return page(answer.status, duplicatePage(viewer, signup.body, this.withRecurrence(errors)));
    });
  }

  /** Adds a slot or item from the signup page's short forms; refused, the whole form comes back with the errors beside its fields. */
  @Post(':id/:kind')
  addChoice(
    @Param('id') id: string,
    @Param('kind') kind: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, api, call }) => {
      const choice = kindOf(kind);
      if (!choice) throw notFound();
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const fields = Object.entries(choiceRequest(choice, form, signup.body.timeZone)).filter(([, value]) => value !== null);
      const answer = await call('POST', `/signups/${signup.body.id}/${choice}s`, { [`${choice}s`]: [Object.fromEntries(fields)] });
      if (answer.status === 201) return seeOther(`/app/signups/${signup.body.id}?done=${choice}-added`);
      const problem = answer.body as ProblemBody;
      const fallback = choice === 'slot' ? 'title' : 'name';
      const errors = problem.errors?.map((error) => ({ ...error, path: error.path.replace(/^(?:slots|items)\.0\.?/, '') }));
      const view = placeFieldErrors(form, errors, [], fallback);
      if (!errors?.length) view.errors[fallback] = [problemText(problem)];
      return page(answer.status, choiceFormPage(viewer, signup.body, choice, view));
    });
  }

  @Get(':id/:kind/:choiceId/edit')
  choiceForm(
    @Param('id') id: string,
    @Param('kind') kind: string,
    @Param('choiceId') choiceId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const choice = kindOf(kind);
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const values = choice ? choiceValues(signup.body, choice, choiceId) : undefined;
      if (!choice || !values) throw notFound();
      return page(
        200,
        choiceFormPage(viewer, signup.body, choice, emptyFormView(values), { id: choiceId, etag: String(signup.headers.etag ?? '') }),
      );
    });
  }

  /** Saves a slot or item only if the signup did not change since the form was shown (its ETag covers its slots and items). */
  @Post(':id/:kind/:choiceId/edit')
  editChoice(
    @Param('id') id: string,
    @Param('kind') kind: string,
    @Param('choiceId') choiceId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, api, call }) => {
      const choice = kindOf(kind);
      if (!choice) throw notFound();
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const answer = await call(
        'PATCH',
        `/signups/${signup.body.id}/${choice}s/${idOf(choiceId)}`,
        choiceRequest(choice, form, signup.body.timeZone),
        form.etag ? { 'if-match': form.etag } : {},
      );
      if (answer.status === 200) return seeOther(`/app/signups/${signup.body.id}?done=saved`);
      const current = await api<SignupView>('GET', `/signups/${signup.body.id}`);
      const etag = String(current.headers.etag ?? '');
      const problem = answer.body as ProblemBody;
      const fresh = answer.status === 412 ? choiceValues(current.body, choice, choiceId) : undefined;
      const view = fresh ? emptyFormView(fresh) : placeFieldErrors(form, problem.errors, [], choice === 'slot' ? 'title' : 'name');
      if (fresh || !problem.errors?.length) view.errors[choice === 'slot' ? 'title' : 'name'] = [problemText(problem)];
      return page(
        answer.status === 412 ? 409 : answer.status,
        choiceFormPage(viewer, current.body, choice, view, { id: idOf(choiceId), etag: fresh ? etag : (form.etag ?? etag) }),
      );
    });
  }

  @Post(':id/slots/:slotId/delete')
  removeSlot(
    @Param('id') id: string,
    @Param('slotId') slotId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('DELETE', `/signups/${idOf(id)}/slots/${idOf(slotId)}`);
      return seeOther(`/app/signups/${idOf(id)}?done=removed`);
    });
  }

  @Post(':id/items/:itemId/delete')
  removeItem(
    @Param('id') id: string,
    @Param('itemId') itemId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('DELETE', `/signups/${idOf(id)}/items/${idOf(itemId)}`);
      return seeOther(`/app/signups/${idOf(id)}?done=removed`);
    });
  }

  @Get(':id/qr.svg')
  qrSvg(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      return { status: 200, body: await qrSvg(signup.body.publicUrl), headers: { 'content-type': 'image/svg+xml; charset=utf-8' } };
    });
  }

  @Get(':id/qr.png')
  qrPng(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      return { status: 200, body: await qrPng(signup.body.publicUrl), headers: { 'content-type': 'image/png' } };
    });
  }

  private transition(req: FastifyRequest, reply: FastifyReply, id: string, action: 'publish' | 'close', done: string) {
    return this.dashboard.signedIn(req, reply, async ({ api }: Caller) => {
      await api('POST', `/signups/${idOf(id)}/${action}`);
      return seeOther(`/app/signups/${idOf(id)}?done=${done}`);
    });
  }

  /** The form again with the API's refusal beside its fields (or above the form when it names none). */
  private refused(form: Record<string, string>, answer: ApiAnswer<unknown>, questionRows: number[]): FormView {
    const problem = answer.body as ProblemBody;
    const view = placeFieldErrors(form, problem.errors, questionRows);
    if (!problem.errors?.length) view.errors.title = [problemText(problem)];
    return view;
  }

  private withRecurrence(view: FormView): FormView {
    const recurrence = Object.keys(view.errors).filter((field) => field.startsWith('recurrence'));
    for (const field of recurrence) {
      (view.errors.count ??= []).push(...view.errors[field]!);
      delete view.errors[field];
    }
    return view;
  }
}
