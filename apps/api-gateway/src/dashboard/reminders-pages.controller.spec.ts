import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ParticipantView, ReminderChannelStatusView, ReminderPassView, ReminderStatusView, SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { type ApiAnswer, ApiProblem, type ApiRequest } from './api.js';
import type { Caller, DashboardService, Rendered } from './dashboard.service.js';
import { RemindersPagesController } from './reminders-pages.controller.js';
import type { Viewer } from './views/frame.js';

const SIGNUP_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';
const viewer: Viewer = {
  email: 'owner@example.com',
  organization: { id: 'org_1', name: 'Neighbours', tier: 'pro', timeZone: 'UTC' },
  role: 'owner',
  organizations: [],
  csrf: 'csrf-token',
};
const day: ReminderChannelStatusView = {
  available: true,
  ceiling: 50,
  used: 50,
  remaining: 0,
  resetsAt: '2027-06-02T00:00:00.000Z',
  usesCeiling: true,
};
const STATUS: ReminderStatusView = { channels: { sms: day, email: day }, reminded: { sms: 0, email: 0 }, lastSentAt: null };
const SIGNUP = { id: SIGNUP_ID, title: 'Potluck', status: 'published', timeZone: 'UTC' } as SignupView;

const answer = <T>(status: number, body: unknown): ApiAnswer<T> => ({ status, body: body as T, headers: {}, text: '' });
const problem = (status: number, code: string, detail: string): ProblemBody => ({ type: `about:blank`, title: code, status, code, detail });

/** The controller on a fake REST API: the signup, its status and no participants; the pass answers `pass`. */
function controllerWith(pass: ApiAnswer<unknown>) {
  const asked: { method: ApiRequest['method']; path: string; body?: unknown }[] = [];
  const respond = async (method: ApiRequest['method'], path: string, body?: unknown): Promise<ApiAnswer<never>> => {
    asked.push({ method, path, ...(body !== undefined && { body }) });
    if (method === 'POST') return pass as ApiAnswer<never>;
    if (path === `/signups/${SIGNUP_ID}`) return answer(200, SIGNUP);
    if (path === `/signups/${SIGNUP_ID}/reminders`) return answer(200, STATUS);
    return answer(200, { data: [] as ParticipantView[], nextCursor: null });
  };
  const caller: Caller = {
    viewer,
    form: { csrf: 'csrf-token', channel: 'email' },
    body: { csrf: 'csrf-token', channel: 'email' },
    call: respond,
    api: async (method, path, body) => {
      const res = await respond(method, path, body);
      if (res.status >= 400) throw new ApiProblem(res.body as ProblemBody);
      return res;
    },
  };
  const dashboard = {
    signedIn: async (_req: FastifyRequest, _reply: FastifyReply, render: (caller: Caller) => Promise<Rendered>) => render(caller),
  } as unknown as DashboardService;
  const controller = new RemindersPagesController(dashboard);
  const post = () => controller.send(SIGNUP_ID, {} as FastifyRequest, {} as FastifyReply) as unknown as Promise<Rendered>;
  return { controller, post, asked };
}

describe('RemindersPagesController', () => {
  it('runs the pass by the channel chosen and redirects to the page with its result', async () => {
    const pass: ReminderPassView = {
      eligible: 12,
      sent: 12,
      failed: 0,
      notEligible: [],
      channels: { email: { eligible: 12, sent: 12, failed: 0, notEligible: [] } },
    };
    const { post, asked } = controllerWith(answer(200, pass));
    await expect(post()).resolves.toEqual({ status: 303, location: `/app/signups/${SIGNUP_ID}/reminders?done=sent&email=12` });
    expect(asked).toEqual([{ method: 'POST', path: `/signups/${SIGNUP_ID}/reminders/send`, body: { channel: 'email' } }]);
  });

  it('shows the page with the pass counts from the query', async () => {
    const { controller } = controllerWith(answer(500, {}));
    const rendered = (await controller.show(
      SIGNUP_ID,
      { done: 'sent', email: '12' },
      {} as FastifyRequest,
      {} as FastifyReply,
    )) as unknown as Rendered;
    expect(rendered.status).toBe(200);
    expect(rendered.page!.value).toContain('Sent 12 emails.');
  });

  it('says the ceiling is used up and when it resets, on the page, when the pass is refused for it', async () => {
    const { post } = controllerWith(answer(429, problem(429, 'daily_ceiling_exceeded', 'This organization sent its 50 reminder emails.')));
    const rendered = await post();
    expect(rendered.status).toBe(429);
    expect(rendered.page!.value).toContain(
      'Nothing was sent: the organization&#39;s emails for today are used up. The ceiling starts again at Wed, Jun 2, 2027, 12:00 AM UTC (midnight UTC).',
    );
  });

  it("explains a tier without the channel, and a draft's refusal in the API's words", async () => {
    const upgrade = await controllerWith(answer(402, problem(402, 'upgrade_required', 'SMS reminders need the pro tier.'))).post();
    expect(upgrade.status).toBe(402);
    expect(upgrade.page!.value).toContain('SMS reminders need the pro tier. An owner can change the tier of the organization.');
    const draft = await controllerWith(
      answer(400, problem(400, 'bad_request', 'Reminders go out for published signups only; this one is draft.')),
    ).post();
    expect(draft.status).toBe(400);
    expect(draft.page!.value).toContain('Reminders go out for published signups only; this one is draft.');
  });
});
