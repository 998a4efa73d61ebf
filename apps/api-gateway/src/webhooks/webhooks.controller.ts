import { Controller, Delete, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import {
  CreateWebhookDto,
  DeliveryPageQueryDto,
  DeliveryPageView,
  DeliveryView,
  type Page,
  PageQueryDto,
  type Principal,
  UpdateWebhookDto,
  WebhookEndpointView,
  WebhookPageView,
  WebhookTestView,
  WebhookWithSecretView,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { UuidParam, ValidBody, ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** Webhook endpoints of the key's organization and mode: organization API keys only (an OAuth token gets 403). */
@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post()
  @HttpCode(200)
  @Operation('webhooks.create')
  @ApiOperation({ summary: 'Register an endpoint; the answer holds its signing secret, shown only now' })
  @ApiBody({ type: CreateWebhookDto })
  @ApiOkResponse({ type: WebhookWithSecretView })
  @ApiProblems(['forbidden', 'validation_failed', 'upgrade_required'])
  create(@ValidBody(CreateWebhookDto) input: CreateWebhookDto, @CurrentPrincipal() principal: Principal): Promise<WebhookWithSecretView> {
    return this.bus.request('webhooks.create', { principal, input: { ...input } });
  }

  @Get()
  @Operation('webhooks.list')
  @ApiOperation({ summary: 'List endpoints, newest first' })
  @ApiOkResponse({ type: WebhookPageView })
  @ApiProblems(['forbidden', 'validation_failed'])
  list(@ValidQuery(PageQueryDto) query: PageQueryDto, @CurrentPrincipal() principal: Principal): Promise<Page<WebhookEndpointView>> {
    return this.bus.request('webhooks.list', { principal, query: { limit: query.limit, cursor: query.cursor } });
  }

  @Get(':id')
  @Operation('webhooks.get')
  @ApiOperation({ summary: 'Read an endpoint' })
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  get(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.get', { principal, id });
  }

  @Patch(':id')
  @Operation('webhooks.update')
  @IfMatchChecked()
  @ApiOperation({ summary: 'Change url, description or eventTypes' })
  @ApiBody({ type: UpdateWebhookDto })
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  update(
    @UuidParam('id') id: string,
    @ValidBody(UpdateWebhookDto) input: UpdateWebhookDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.update', { principal, id, ifMatch, input: { ...input } });
  }

  @Delete(':id')
  @Operation('webhooks.delete')
  @IfMatchChecked()
  @ApiOperation({ summary: 'Delete an endpoint with its delivery history; answers the deleted endpoint' })
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  remove(
    @UuidParam('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.delete', { principal, id, ifMatch });
  }

  @Post(':id/pause')
  @HttpCode(200)
  @Operation('webhooks.pause')
  @ApiOperation({ summary: 'Pause deliveries (new events are recorded as skipped); idempotent' })
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  pause(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.pause', { principal, id });
  }

  @Post(':id/resume')
  @HttpCode(200)
  @Operation('webhooks.resume')
  @ApiOperation({ summary: 'Resume deliveries; resets consecutiveFailures and replays nothing by itself' })
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  resume(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.resume', { principal, id });
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @Operation('webhooks.rotate')
  @ApiOperation({ summary: 'New signing secret (shown only now); the previous one keeps signing for 24 hours' })
  @ApiOkResponse({ type: WebhookWithSecretView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  rotate(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookWithSecretView> {
    return this.bus.request('webhooks.rotate', { principal, id });
  }

  @Post(':id/test')
  @HttpCode(200)
  @Operation('webhooks.test')
  @ApiOperation({ summary: 'Send one signed webhook.test now and report the answer; never counts toward pausing' })
  @ApiOkResponse({ type: WebhookTestView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  test(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookTestView> {
    return this.bus.request('webhooks.test', { principal, id });
  }

  @Get(':id/deliveries')
  @Operation('webhooks.deliveries.list')
  @ApiOperation({ summary: "The endpoint's deliveries, newest first (limit default 50, max 200)" })
  @ApiOkResponse({ type: DeliveryPageView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  deliveries(
    @UuidParam('id') id: string,
    @ValidQuery(DeliveryPageQueryDto) query: DeliveryPageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<DeliveryView>> {
    return this.bus.request('webhooks.deliveries.list', { principal, id, query: { limit: query.limit, cursor: query.cursor } });
  }

  @Post('deliveries/:id/replay')
  @HttpCode(200)
  @Operation('webhooks.deliveries.replay')
  @ApiOperation({ summary: 'Send a delivery again: back to pending, attemptCount 0, same webhook-id' })
  @ApiOkResponse({ type: DeliveryView })
  @ApiProblems(['forbidden', 'not_found', 'validation_failed'])
  replay(@UuidParam('id') id: string, @CurrentPrincipal() principal: Principal): Promise<DeliveryView> {
    return this.bus.request('webhooks.deliveries.replay', { principal, id });
  }
}
