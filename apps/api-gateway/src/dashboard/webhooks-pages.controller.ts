import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ALL_EVENT_TYPES,
  type DeliveryView,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointView,
  type WebhookTestView,
  type WebhookWithSecretView,
} from '#libs/contracts';
import type { FieldError, ProblemBody } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { type Caller, DashboardService, idOf, type Rendered, seeOther } from './dashboard.service.js';
import { emptyFormView, type FormView } from './views/fields.js';
import { confirmPage, idempotencyHeader, type Notice, problemText } from './views/frame.js';
import { eventTypeField, newWebhookFormValues, signingSecretPage, webhookPage, webhooksListPage } from './views/webhooks.js';

const NOTICES: Record<string, Notice> = {
  paused: { kind: 'success', text: 'Paused: new events are recorded as skipped until you resume.' },
  resumed: { kind: 'success', text: 'Resumed: pending retries go on; skipped events are not sent.' },
  replayed: { kind: 'success', text: 'Delivery queued to be sent again, with the same webhook-id.' },
  deleted: { kind: 'success', text: 'Endpoint deleted with its delivery history.' },
};

interface Paged<T> {
  data: T[];
  nextCursor: string | null;
}

const noticeOf = (done: unknown): Notice | undefined => (typeof done === 'string' ? NOTICES[done] : undefined);
/** A cursor is opaque, but never long (the API refuses it anyway). */
const cursorOf = (cursor: unknown): string | undefined => (typeof cursor === 'string' && cursor.length <= 512 ? cursor : undefined);
const pageQuery = (limit: number, cursor: string | undefined): string =>
  new URLSearchParams({ limit: String(limit), ...(cursor && { cursor }) }).toString();

/** The REST API's body for the new endpoint form: every type when "all" is checked, else the checked ones (none: the API says so). */
function webhookRequest(form: Record<string, string>): Record<string, unknown> {
  const checked = (type: string) => form[eventTypeField(type)] === 'on';
  return {
    url: (form.url ?? '').trim(),
    ...(form.description?.trim() && { description: form.description.trim() }),
    eventTypes: checked(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : WEBHOOK_EVENT_TYPES.filter(checked),
  };
}

/** The API's field errors beside the form's fields (`eventTypes[2]` beside the event types). */
function placeWebhookErrors(values: Record<string, string>, errors: FieldError[]): FormView {
  const view = emptyFormView(values);
  for (const error of errors) {
    const path = error.path.replace(/^body\.?/, '');
    const field = ['url', 'description'].includes(path) ? path : path.startsWith('eventTypes') ? 'eventTypes' : 'url';
    (view.errors[field] ??= []).push(error.message);
  }
  return view;
}

/** The organization's webhook endpoints: list, create, pause, resume, rotate, test, delete, and their deliveries with replay. */
@ApiExcludeController()
@Controller('app/webhooks')
@Auth.public()
@Unmetered()
export class WebhooksPagesController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, (caller) =>
      this.listPage(caller, 200, emptyFormView(newWebhookFormValues()), cursorOf(query.cursor), noticeOf(query.done)),
    );
  }

  /** Answers the secret once (201, not a redirect: the page is its only showing; the dashboard's pages are never cached). */
  @Post()
  create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async (caller) => {
      const answer = await caller.call<WebhookWithSecretView>(
        'POST',
        '/webhooks',
        webhookRequest(caller.form),
        idempotencyHeader(caller.form),
      );
      if (answer.status < 300) {
        return { status: 201, page: signingSecretPage(caller.viewer, answer.body.endpoint, answer.body.signingSecret, 'created') };
      }
      const problem = answer.body as unknown as ProblemBody;
      if (!problem.errors?.length) {
        return this.listPage(caller, answer.status, emptyFormView(caller.form), undefined, { kind: 'error', text: problemText(problem) });
      }
      return this.listPage(caller, answer.status, placeWebhookErrors(caller.form, problem.errors), undefined);
    });
  }

  @Get(':id')
  show(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, (caller) => this.endpointPage(caller, id, cursorOf(query.cursor), noticeOf(query.done)));
  }

  @Post(':id/pause')
  pause(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.action(req, reply, id, 'pause', 'paused');
  }

  @Post(':id/resume')
  resume(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.action(req, reply, id, 'resume', 'resumed');
  }

  /** The new secret, once, as at creation. */
  @Post(':id/rotate')
  rotate(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, form, api }) => {
      const answer = await api<WebhookWithSecretView>('POST', `/webhooks/${idOf(id)}/rotate`, undefined, idempotencyHeader(form));
      return { status: 200, page: signingSecretPage(viewer, answer.body.endpoint, answer.body.signingSecret, 'rotated') };
    });
  }

  /** Sends a webhook.test now and shows the endpoint with the answer it gave (not recorded anywhere to show it again). */
  @Post(':id/test')
  test(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async (caller) => {
      const answer = await caller.api<WebhookTestView>('POST', `/webhooks/${idOf(id)}/test`);
      return this.endpointPage(caller, id, undefined, undefined, answer.body);
    });
  }

  @Get(':id/delete')
  confirmRemove(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ viewer, api }) => {
      const endpoint = (await api<WebhookEndpointView>('GET', `/webhooks/${idOf(id)}`)).body;
      return {
        status: 200,
        page: confirmPage(viewer, 'webhooks', {
          title: 'Delete this endpoint?',
          consequence: `${endpoint.url} receives no more events, and its delivery history is deleted. This cannot be undone.`,
          action: `/app/webhooks/${endpoint.id}/delete`,
          button: 'Delete the endpoint',
          back: `/app/webhooks/${endpoint.id}`,
        }),
      };
    });
  }

  @Post(':id/delete')
  remove(@Param('id') id: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('DELETE', `/webhooks/${idOf(id)}`);
      return seeOther('/app/webhooks?done=deleted');
    });
  }

  @Post(':id/deliveries/:deliveryId/replay')
  replay(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.dashboard.signedIn(req, reply, async ({ api }) => {
      await api('POST', `/webhooks/deliveries/${idOf(deliveryId)}/replay`);
      return seeOther(`/app/webhooks/${idOf(id)}?done=replayed`);
    });
  }

  private action(req: FastifyRequest, reply: FastifyReply, id: string, action: 'pause' | 'resume', done: string) {
    return this.dashboard.signedIn(req, reply, async ({ api }: Caller) => {
      await api('POST', `/webhooks/${idOf(id)}/${action}`);
      return seeOther(`/app/webhooks/${idOf(id)}?done=${done}`);
    });
  }

  private async listPage(caller: Caller, status: number, form: FormView, cursor: string | undefined, notice?: Notice): Promise<Rendered> {
    const answer = await caller.api<Paged<WebhookEndpointView>>('GET', `/webhooks?${pageQuery(100, cursor)}`);
    return {
      status,
      page: webhooksListPage(caller.viewer, answer.body.data, { form, nextCursor: answer.body.nextCursor, notice }),
    };
  }

  private async endpointPage(
    caller: Caller,
    id: string,
    cursor: string | undefined,
    notice?: Notice,
    test?: WebhookTestView,
  ): Promise<Rendered> {
    const endpoint = await caller.api<WebhookEndpointView>('GET', `/webhooks/${idOf(id)}`);
    const deliveries = await caller.api<Paged<DeliveryView>>('GET', `/webhooks/${endpoint.body.id}/deliveries?${pageQuery(50, cursor)}`);
    return {
      status: 200,
      page: webhookPage(caller.viewer, endpoint.body, deliveries.body.data, { nextCursor: deliveries.body.nextCursor, notice, test }),
    };
  }
}
