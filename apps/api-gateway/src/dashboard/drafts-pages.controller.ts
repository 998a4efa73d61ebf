import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignupDraftView, SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { DashboardService, seeOther } from './dashboard.service.js';
import { newSignupFormValues, placeFieldErrors, signupRequest } from './signup-form.js';
import { describePage, itemField, reviewPage, rowsOf, slotField } from './views/drafts.js';
import { emptyFormView } from './views/fields.js';
import { problemText } from './views/frame.js';
import { instantFromLocal, localInputValue } from './wall-time.js';

const integer = (value: string | undefined): number | string => (/^\d{1,9}$/.test(value ?? '') ? Number(value) : (value ?? ''));

/** The review form's values of a draft: every slot and item kept until the person unchecks it. */
function draftValues(draft: SignupDraftView['draft']): Record<string, string> {
  const { timeZone } = draft;
  const values: Record<string, string> = {
    ...newSignupFormValues(timeZone),
    title: draft.title,
    description: draft.description ?? '',
    eventDate: localInputValue(draft.eventDate, timeZone),
    location: draft.location ?? '',
  };
  draft.slots.forEach((slot, i) => {
    values[slotField(i, 'keep')] = 'on';
    values[slotField(i, 'title')] = slot.title;
    values[slotField(i, 'startTime')] = localInputValue(slot.startTime, timeZone);
    values[slotField(i, 'endTime')] = localInputValue(slot.endTime, timeZone);
    values[slotField(i, 'capacity')] = String(slot.capacity ?? 1);
  });
  draft.items.forEach((item, i) => {
    values[itemField(i, 'keep')] = 'on';
    values[itemField(i, 'name')] = item.name;
    values[itemField(i, 'quantityNeeded')] = String(item.quantityNeeded ?? 1);
  });
  return values;
}

/**
 * An AI draft from a sentence (POST /signups/from-description, which creates nothing), reviewed
 * and corrected by the person, then created with the same calls as by hand: the signup, its
 * slots, its items.
 */
@ApiExcludeController()
@Controller('app/signups/draft')
@Auth.public()
@Unmetered()
export class DraftsPagesController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get()
  describe(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer }) => ({
      status: 200,
      page: describePage(viewer, emptyFormView({ timeZone: viewer.organization.timeZone ?? 'UTC' })),
    }));
  }

  @Post()
  draft(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, call }) => {
      const answer = await call<SignupDraftView>('POST', '/signups/from-description', {
        description: form.description ?? '',
        ...(form.timeZone && { timeZone: form.timeZone }),
      });
      if (answer.status === 200) return { status: 200, page: reviewPage(viewer, emptyFormView(draftValues(answer.body.draft))) };
      const problem = answer.body as unknown as ProblemBody;
      const view = emptyFormView(form);
      view.errors.description = problem.errors?.length ? problem.errors.map((e) => e.message) : [problemText(problem)];
      return { status: answer.status, page: describePage(viewer, view) };
    });
  }

  @Post('create')
  create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, call }) => {
      const { input } = signupRequest(form, false);
      const created = await call<SignupView>('POST', '/signups', input);
      if (created.status !== 201) {
        const problem = created.body as unknown as ProblemBody;
        const view = placeFieldErrors(form, problem.errors);
        if (!problem.errors?.length) view.errors.title = [problemText(problem)];
        return { status: created.status, page: reviewPage(viewer, view) };
      }
      const signup = created.body;
      const at = (value: string | undefined) => (value ? (instantFromLocal(value, signup.timeZone) ?? value) : undefined);
      const slots = Array.from({ length: rowsOf(form, (i) => slotField(i, 'title')) }, (_, i) => i)
        .filter((i) => form[slotField(i, 'keep')] === 'on')
        .map((i) => ({
          title: form[slotField(i, 'title')],
          startTime: at(form[slotField(i, 'startTime')]),
          endTime: at(form[slotField(i, 'endTime')]),
          capacity: integer(form[slotField(i, 'capacity')]),
        }));
      const items = Array.from({ length: rowsOf(form, (i) => itemField(i, 'name')) }, (_, i) => i)
        .filter((i) => form[itemField(i, 'keep')] === 'on')
        .map((i) => ({ name: form[itemField(i, 'name')], quantityNeeded: integer(form[itemField(i, 'quantityNeeded')]) }));
      const added = await Promise.all([
        slots.length ? call('POST', `/signups/${signup.id}/slots`, { slots }) : undefined,
        items.length ? call('POST', `/signups/${signup.id}/items`, { items }) : undefined,
      ]);
      const complete = added.every((answer) => !answer || answer.status === 201);
      return seeOther(`/app/signups/${signup.id}?done=${complete ? 'created' : 'created-partly'}`);
    });
  }
}
