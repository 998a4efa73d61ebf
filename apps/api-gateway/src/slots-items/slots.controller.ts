import { Controller, Delete, Get, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { CreateSlotDto, CreateSlotsDto, type Principal, SlotListView, SlotView, UpdateSlotDto } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { type OneOrMany, UuidParam, ValidBody, ValidOneOrMany } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';
import { ApiBodyOneOf, ApiCreatedOneOf } from '../openapi/one-of.js';

@ApiTags('slots')
@Controller('signups/:id/slots')
export class SlotsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post()
  @Operation('signups.slots.create')
  @ApiOperation({
    summary: 'Add one slot, or several at once with {slots: [...]}',
    description:
      'A body with a `slots` key is a bulk creation and answers `{data: [...]}`; otherwise the body is one slot and the answer is that slot.',
  })
  @ApiBodyOneOf('One slot, or {slots: [...]} for several', CreateSlotDto, CreateSlotsDto)
  @ApiCreatedOneOf('The slot (single) or {data} (bulk)', SlotView, SlotListView)
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  async create(
    @UuidParam('id') signupId: string,
    @ValidOneOrMany(CreateSlotDto, CreateSlotsDto, 'slots') body: OneOrMany<CreateSlotDto>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SlotView | SlotListView> {
    const created = await this.bus.request('signups.slots.create', { principal, signupId, input: body.items.map((slot) => ({ ...slot })) });
    return body.many ? created : created.data[0]!;
  }

  @Get()
  @Operation('signups.slots.list')
  @ApiOperation({
    summary: "List a signup's slots with what remains of each",
    description:
      "Only the signup's own organization may list them: another organization's published or closed signup answers 403 forbidden, anything else the caller cannot see 404.",
  })
  @ApiOkResponse({ type: SlotListView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  list(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<SlotListView> {
    return this.bus.request('signups.slots.list', { principal, signupId });
  }

  @Patch(':slotId')
  @Operation('signups.slots.update')
  @IfMatchChecked('signup')
  @ApiOperation({ summary: 'Edit a slot; capacity may not drop below what is taken (409)' })
  @ApiBody({ type: UpdateSlotDto })
  @ApiOkResponse({ type: SlotView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  update(
    @UuidParam('id') signupId: string,
    @UuidParam('slotId') id: string,
    @ValidBody(UpdateSlotDto) input: UpdateSlotDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<SlotView> {
    return this.bus.request('signups.slots.update', { principal, signupId, id, ifMatch, input: { ...input } });
  }

  @Delete(':slotId')
  @Operation('signups.slots.delete')
  @IfMatchChecked('signup')
  @ApiOperation({ summary: 'Delete a slot; answers the deleted slot' })
  @ApiOkResponse({ type: SlotView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  remove(
    @UuidParam('id') signupId: string,
    @UuidParam('slotId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<SlotView> {
    return this.bus.request('signups.slots.delete', { principal, signupId, id, ifMatch });
  }
}
