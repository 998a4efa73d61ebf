import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  etagOfJson,
  PARTICIPANT_STATUSES,
  type ParticipantStatus,
  type ParticipantView,
  type SelectionInput,
  type SelectionView,
  type SignupView,
} from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { changedQuestions, questionField, readAnswers, readChecked } from '../pages/page-answers.js';
import { choicesOf, emptyForm, hasErrors, placeErrors, readSelections, waitsForSignup } from '../pages/page-form.js';
import { participantForm } from '../pages/views.js';
import { type Caller, DashboardService, idOf, participantsOf, type Rendered, seeOther } from './dashboard.service.js';
import { confirmPage, type Notice, problemText } from './views/frame.js';
import {
  checkInPage,
  matches,
  type ParticipantFilters,
  participantFormPage,
  participantRows,
  participantsPage,
} from './views/participants.js';

const SEARCH_MAX_LENGTH = 200;

const CONTACT_FIELDS = ['name', 'email', 'phone'] as const;
const contactOf = (participant: ParticipantView): Record<string, string> => ({
  name: participant.name,
  email: participant.email,
  phone: participant.phone ?? '',
});

/** Whether the form asks for exactly what the participant holds (in any order). */
function sameSelections(held: SelectionView[], asked: SelectionInput[]): boolean {
  const key = (selection: SelectionInput) => `${selection.type}:${selection.id}:${selection.quantity ?? 1}`;
  const wanted = asked.map(key).sort();
  const holding = held.map(key).sort();
  return wanted.length === holding.length && wanted.every((entry, i) => entry === holding[i]);
}

const NOTICES: Record<string, Notice> = {
  saved: { kind: 'success', text: 'Participant saved.' },
  removed: { kind: 'success', text: 'Participant removed: their places are free again.' },
  promoted: { kind: 'success', text: 'Promoted from the waitlist.' },
  'checked-in': { kind: 'success', text: 'Checked in.' },
  undone: { kind: 'success', text: 'Check-in undone.' },
};

const filtersOf = (query: Record<string, unknown>): ParticipantFilters => ({
  q: typeof query.q === 'string' ? query.q.slice(0, SEARCH_MAX_LENGTH) : '',
  status: PARTICIPANT_STATUSES.includes(query.status as ParticipantStatus) ? (query.status as ParticipantStatus) : undefined,
});
const noticeOf = (done: unknown): Notice | undefined => (typeof done === 'string' ? NOTICES[done] : undefined);

/** The participants of one signup: the list with search, edit, remove, promote, the CSV export, and the check-in view.
 * Not metered as anonymous calls: without a session a page only redirects to sign in, and with
 * one every call it makes to the REST API counts against the user's grant.
 */
@ApiExcludeController()
@Controller('app/signups/:id')
@Auth.public()
@Unmetered()
export class ParticipantsPagesController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get('participants')
  list(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async (caller) => {
      const { signup, participants, truncated } = await this.read(caller, id);
      const filters = filtersOf(query);
      const shown = participants.filter((p) => matches(p, filters));
      return {
        status: 200,
        page: participantsPage(caller.viewer, signup, shown, {
          filters,
          total: participants.length,
          truncated,
          notice: noticeOf(query.done),
        }),
      };
    });
  }

  /** The table's rows alone, for the page's live update (conditional: 304 when nothing changed). */
  @Get('participants/rows')
  rows(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async (caller): Promise<Rendered> => {
      const { signup, participants } = await this.read(caller, id);
      const shown = participants.filter((p) => matches(p, filtersOf(query)));
      const body = participantRows(caller.viewer, signup, shown).value;
      const etag = etagOfJson(body);
      if (req.headers['if-none-match'] === etag) return { status: 304, headers: { etag } };
      return { status: 200, body, headers: { 'content-type': 'text/html; charset=utf-8', etag } };
    });
  }

  @Get('participants/export.csv')
  exportCsv(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      const answer = await api('GET', `/signups/${idOf(id)}/participants/export.csv`);
      return {
        status: 200,
        body: answer.text,
        headers: {
          'content-type': String(answer.headers['content-type'] ?? 'text/csv; charset=utf-8'),
          'content-disposition': String(answer.headers['content-disposition'] ?? 'attachment; filename="participants.csv"'),
        },
      };
    });
  }

  @Get('participants/:participantId/edit')
  editForm(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = (await api<SignupView>('GET', `/signups/${idOf(id)}`)).body;
      const participant = await api<ParticipantView>('GET', `/signups/${signup.id}/participants/${idOf(participantId)}`);
      const form = participantForm(signup.questions, participant.body, contactOf(participant.body));
      return { status: 200, page: participantFormPage(viewer, signup, participant.body, form, String(participant.headers.etag ?? '')) };
    });
  }

  /**
   * Saves the participant as the form has them, only if they did not change since it was shown
   * (If-Match): contact details, answers (an emptied answer is cleared), and their slots and items
   * when these changed (sent as the whole new set, which the service allocates as for a person
   * changing their own registration).
   */
  @Post('participants/:participantId/edit')
  edit(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form: values, body, api, call }) => {
      const signup = (await api<SignupView>('GET', `/signups/${idOf(id)}`)).body;
      const path = `/signups/${signup.id}/participants/${idOf(participantId)}`;
      const stored = (await api<ParticipantView>('GET', path)).body;
      const etag = values.etag ?? '';
      const form = emptyForm(values, readChecked(body, signup.questions));
      const selecting = !waitsForSignup(stored);
      const { selections, fields, errors } = readSelections(
        selecting ? choicesOf({ slots: signup.slots ?? [], items: signup.items ?? [] }) : [],
        values,
      );
      // Only the questions whose answer the form changed are read and sent: an answer given before a question changed stays as it was.
      const answers = readAnswers(
        changedQuestions(signup.questions, stored.answers, values, form.checked),
        values,
        form.checked,
        stored.answers,
      );
      Object.assign(form.errors, errors, answers.errors);
      if (hasErrors(form)) return { status: 422, page: participantFormPage(viewer, signup, stored, form, etag) };
      const contact = { name: values.name ?? '', email: values.email ?? '', phone: values.phone ? values.phone : null };
      const changedAnswers = { ...answers.answers, ...Object.fromEntries(answers.cleared.map((question) => [question, null])) };
      const input = {
        ...(contact.name !== stored.name && { name: contact.name }),
        ...(contact.email !== stored.email && { email: contact.email }),
        ...(contact.phone !== stored.phone && { phone: contact.phone }),
        ...(selecting && !sameSelections(stored.selections, selections) && { selections }),
        ...(Object.keys(changedAnswers).length > 0 && { answers: changedAnswers }),
      };
      // Nothing changed: no write, no participant.updated for the webhooks.
      if (Object.keys(input).length === 0) return seeOther(`/app/signups/${signup.id}/participants?done=saved`);
      const answer = await call<ParticipantView>('PATCH', path, input, etag ? { 'if-match': etag } : {});
      if (answer.status === 200) return seeOther(`/app/signups/${signup.id}/participants?done=saved`);
      const problem = answer.body as unknown as ProblemBody;
      if (answer.status === 412) {
        const current = await api<ParticipantView>('GET', path);
        const fresh = participantForm(signup.questions, current.body, contactOf(current.body));
        fresh.summary.push(problemText(problem));
        return { status: 409, page: participantFormPage(viewer, signup, current.body, fresh, String(current.headers.etag ?? '')) };
      }
      placeErrors(form, problem.errors ?? [], fields, [...CONTACT_FIELDS, ...signup.questions.map(questionField)]);
      if (!problem.errors?.length) form.summary.push(problemText(problem));
      return { status: answer.status, page: participantFormPage(viewer, signup, stored, form, etag) };
    });
  }

  @Get('participants/:participantId/delete')
  confirmRemove(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const signup = (await api<SignupView>('GET', `/signups/${idOf(id)}`)).body;
      const participant = (await api<ParticipantView>('GET', `/signups/${signup.id}/participants/${idOf(participantId)}`)).body;
      return {
        status: 200,
        page: confirmPage(viewer, 'signups', {
          title: `Remove ${participant.name}?`,
          consequence: `${participant.name} is no longer signed up for ${signup.title}: their places are freed for the next in line.`,
          action: `/app/signups/${signup.id}/participants/${participant.id}/delete`,
          button: `Remove ${participant.name}`,
          back: `/app/signups/${signup.id}/participants`,
        }),
      };
    });
  }

  @Post('participants/:participantId/delete')
  remove(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('DELETE', `/signups/${idOf(id)}/participants/${idOf(participantId)}`);
      return seeOther(`/app/signups/${idOf(id)}/participants?done=removed`);
    });
  }

  @Post('waitlist/:entryId/promote')
  promote(
    @Param('id') id: string,
    @Param('entryId') entryId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('POST', `/signups/${idOf(id)}/waitlist/${idOf(entryId)}/promote`);
      return seeOther(`/app/signups/${idOf(id)}/participants?done=promoted`);
    });
  }

  @Get('check-in')
  checkIn(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async (caller) => {
      const { signup, participants } = await this.read(caller, id);
      const { q } = filtersOf(query);
      const shown = participants.filter((p) => matches(p, { q }));
      return { status: 200, page: checkInPage(caller.viewer, signup, shown, q, noticeOf(query.done)) };
    });
  }

  @Post('check-in/:participantId')
  checkInOne(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.attendance(req, reply, id, participantId, 'POST', 'checked-in');
  }

  @Post('check-in/:participantId/undo')
  undoCheckIn(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.attendance(req, reply, id, participantId, 'DELETE', 'undone');
  }

  private attendance(req: FastifyRequest, reply: FastifyReply, id: string, participantId: string, method: 'POST' | 'DELETE', done: string) {
    return this.dashboard.signedIn(req, reply, async ({ api }): Promise<Rendered> => {
      await api(method, `/signups/${idOf(id)}/participants/${idOf(participantId)}/check-in`, method === 'POST' ? {} : undefined);
      return seeOther(`/app/signups/${idOf(id)}/check-in?done=${done}#checkin-${idOf(participantId)}`);
    });
  }

  /** The signup and its participants (participantsOf). */
  private async read(caller: Caller, id: string): Promise<{ signup: SignupView; participants: ParticipantView[]; truncated: boolean }> {
    const signup = await caller.api<SignupView>('GET', `/signups/${idOf(id)}`);
    return { signup: signup.body, ...(await participantsOf(caller, signup.body.id)) };
  }
}
