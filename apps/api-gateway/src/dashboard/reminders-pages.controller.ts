import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REMINDER_CHANNELS, type ReminderChannel, type ReminderPassView, type ReminderStatusView, type SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { type Caller, DashboardService, idOf, participantsOf, type Rendered, seeOther } from './dashboard.service.js';
import { type Notice, problemText } from './views/frame.js';
import { ceilingNotice, passNotice, passQuery, remindersPage } from './views/reminders.js';

const isChannel = (value: unknown): value is ReminderChannel => REMINDER_CHANNELS.includes(value as ReminderChannel);

/**
 * A signup's reminders: today's ceilings by channel, who was reminded when, and a pass by email, SMS
 * or both. Not metered as anonymous calls, as the other pages: every call it makes counts against
 * the user's grant. A member reads neither the status (reminders:send) nor the participants: their
 * refusal is the page.
 */
@ApiExcludeController()
@Controller('app/signups/:id/reminders')
@Auth.public()
@Unmetered()
export class RemindersPagesController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get()
  show(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, (caller) => this.page(caller, id, 200, passNotice(query)));
  }

  /** Runs a pass: its result on the page it redirects to; a refusal (tier, ceiling, a draft, the role) on the page at once. */
  @Post()
  send(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async (caller) => {
      const channel = caller.form.channel ?? '';
      const pass = await caller.call<ReminderPassView>('POST', `/signups/${idOf(id)}/reminders/send`, { channel });
      if (pass.status === 200) return seeOther(`/app/signups/${idOf(id)}/reminders?${passQuery(pass.body)}`);
      const problem = pass.body as unknown as ProblemBody;
      if (problem.code === 'daily_ceiling_exceeded' && isChannel(channel)) {
        return this.page(caller, id, pass.status, (day) => ceilingNotice(caller.viewer, channel, day));
      }
      return this.page(caller, id, pass.status, { kind: 'error', text: problemText(problem) });
    });
  }

  private async page(
    caller: Caller,
    id: string,
    status: number,
    notice: Notice | undefined | ((day: ReminderStatusView) => Notice),
  ): Promise<Rendered> {
    const signup = await caller.api<SignupView>('GET', `/signups/${idOf(id)}`);
    const [reminders, participants] = await Promise.all([
      caller.api<ReminderStatusView>('GET', `/signups/${signup.body.id}/reminders`),
      participantsOf(caller, signup.body.id).then((read) => read.participants),
    ]);
    const shown = typeof notice === 'function' ? notice(reminders.body) : notice;
    return { status, page: remindersPage(caller.viewer, signup.body, reminders.body, participants, shown) };
  }
}
