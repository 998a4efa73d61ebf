import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOfJson, PARTICIPANT_STATUSES, type ParticipantStatus, type ParticipantView, type SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { type Caller, DashboardService, idOf, participantsOf, type Rendered, seeOther } from './dashboard.service.js';
import { placeFieldErrors } from './signup-form.js';
import { emptyFormView } from './views/fields.js';
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
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const participant = await api<ParticipantView>('GET', `/signups/${signup.body.id}/participants/${idOf(participantId)}`);
      const { name, email, phone } = participant.body;
      const form = emptyFormView({ name, email, phone: phone ?? '' });
      return {
        status: 200,
        page: participantFormPage(viewer, signup.body, participant.body, form, String(participant.headers.etag ?? '')),
      };
    });
  }

  @Post('participants/:participantId/edit')
  edit(
    @Param('id') id: string,
    @Param('participantId') participantId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, api, call }) => {
      const signup = await api<SignupView>('GET', `/signups/${idOf(id)}`);
      const path = `/signups/${signup.body.id}/participants/${idOf(participantId)}`;
      const input = { name: form.name ?? '', email: form.email ?? '', phone: form.phone ? form.phone : null };
      const answer = await call<ParticipantView>('PATCH', path, input, form.etag ? { 'if-match': form.etag } : {});
      if (answer.status === 200) return seeOther(`/app/signups/${signup.body.id}/participants?done=saved`);
      const current = await api<ParticipantView>('GET', path);
      const problem = answer.body as unknown as ProblemBody;
      const view =
        answer.status === 412
          ? emptyFormView({ name: current.body.name, email: current.body.email, phone: current.body.phone ?? '' })
          : placeFieldErrors(form, problem.errors, [], 'name');
      if (!problem.errors?.length) view.errors.name = [problemText(problem)];
      return {
        status: answer.status === 412 ? 409 : answer.status,
        page: participantFormPage(viewer, signup.body, current.body, view, String(current.headers.etag ?? '')),
      };
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
