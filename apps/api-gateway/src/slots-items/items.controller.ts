import { Controller, Delete, Get, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { CreateItemDto, CreateItemsDto, ItemListView, ItemView, type Principal, UpdateItemDto } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { type OneOrMany, UuidParam, ValidBody, ValidOneOrMany } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';
import { ApiBodyOneOf, ApiCreatedOneOf } from '../openapi/one-of.js';

@ApiTags('items')
@Controller('signups/:id/items')
export class ItemsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post()
  @Operation('signups.items.create')
  @ApiOperation({
    summary: 'Add one item, or several at once with {items: [...]}',
    description:
      'A body with an `items` key is a bulk creation and answers `{data: [...]}`; otherwise the body is one item and the answer is that item.',
  })
  @ApiBodyOneOf('One item, or {items: [...]} for several', CreateItemDto, CreateItemsDto)
  @ApiCreatedOneOf('The item (single) or {data} (bulk)', ItemView, ItemListView)
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  async create(
    @UuidParam('id') signupId: string,
    @ValidOneOrMany(CreateItemDto, CreateItemsDto, 'items') body: OneOrMany<CreateItemDto>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ItemView | ItemListView> {
    const created = await this.bus.request('signups.items.create', { principal, signupId, input: body.items.map((item) => ({ ...item })) });
    return body.many ? created : created.data[0]!;
  }

  @Get()
  @Operation('signups.items.list')
  @ApiOperation({
    summary: "List a signup's items with what remains of each",
    description:
      "Only the signup's own organization may list them: another organization's published or closed signup answers 403 forbidden, anything else the caller cannot see 404.",
  })
  @ApiOkResponse({ type: ItemListView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  list(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<ItemListView> {
    return this.bus.request('signups.items.list', { principal, signupId });
  }

  @Patch(':itemId')
  @Operation('signups.items.update')
  @IfMatchChecked('signup')
  @ApiOperation({ summary: 'Edit an item; quantityNeeded may not drop below quantityClaimed (409)' })
  @ApiBody({ type: UpdateItemDto })
  @ApiOkResponse({ type: ItemView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  update(
    @UuidParam('id') signupId: string,
    @UuidParam('itemId') id: string,
    @ValidBody(UpdateItemDto) input: UpdateItemDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ItemView> {
    return this.bus.request('signups.items.update', { principal, signupId, id, ifMatch, input: { ...input } });
  }

  @Delete(':itemId')
  @Operation('signups.items.delete')
  @IfMatchChecked('signup')
  @ApiOperation({ summary: 'Delete an item; answers the deleted item' })
  @ApiOkResponse({ type: ItemView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'])
  remove(
    @UuidParam('id') signupId: string,
    @UuidParam('itemId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ItemView> {
    return this.bus.request('signups.items.delete', { principal, signupId, id, ifMatch });
  }
}
