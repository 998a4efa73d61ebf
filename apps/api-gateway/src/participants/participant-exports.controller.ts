import { Readable } from 'node:stream';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Bus } from '#libs/bus';
import { EXPORT_PAGE_SIZE, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { UuidParam } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';
import { EXPORT_CONTENT_TYPES, exportFileName, type ExportFormat, exportText } from './participants-export.js';

const DESCRIPTION =
  'Every participant, cancelled ones included, oldest registration first, with their selections (slot titles with times, item names with ' +
  "quantities), waitlist entries, answers to the signup's questions, attendance and reminder time; times in the signup's time zone, " +
  'each beside its ISO 8601 instant in UTC. Streamed: the gateway reads the list page by page (500 participants at most) and sends each ' +
  'page as it arrives, so an export of any size runs in bounded memory; a participant who registers during the export is in it when the ' +
  'export has not yet passed its place (they sort last), and a change during it shows as its page read it. A problem found once the ' +
  'download began (the signup deleted, a service gone) ends the download before its end (the chunked body is cut off), never with a ' +
  'partial file that looks complete.';

/**
 * A signup's participants as a file to download (participants:read, organizer only, like the
 * list): CSV (RFC 4180, UTF-8 with a byte order mark, cells that start like a formula
 * neutralised) or NDJSON, streamed page by page from signups.participants.export.
 */
@ApiTags('participants')
@Controller('signups/:id/participants')
export class ParticipantExportsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get('export.csv')
  @Operation('signups.participants.export')
  @ApiOperation({
    summary: "Export a signup's participants as CSV",
    description:
      `${DESCRIPTION} One row per participant after a header row; one column per question of the signup, headed by its label. ` +
      "A cell whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe (`'`), so a spreadsheet " +
      "shows it as text rather than running it as a formula (a phone number such as +15551234567 reads `'+15551234567`).",
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV file (attachment).', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  csv(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    return this.export('csv', signupId, principal, reply);
  }

  @Get('export.ndjson')
  @Operation('signups.participants.export')
  @ApiOperation({
    summary: "Export a signup's participants as NDJSON",
    description:
      `${DESCRIPTION} One JSON object per line: times as ISO instants (\`createdAt\`) and in the signup's zone (\`createdAtLocal\`), ` +
      'answers keyed by question id, each with its label and answer, attendance as an object.',
  })
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({ description: 'The NDJSON file (attachment).', content: { 'application/x-ndjson': { schema: { type: 'string' } } } })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  ndjson(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    return this.export('ndjson', signupId, principal, reply);
  }

  /** Reads the first page (its problems answer as usual), then streams the file page by page. */
  private async export(format: ExportFormat, signupId: string, principal: Principal, reply: FastifyReply): Promise<void> {
    const page = (cursor?: string) =>
      this.bus.request('signups.participants.export', {
        principal,
        signupId,
        query: { limit: EXPORT_PAGE_SIZE, ...(cursor && { cursor }) },
      });
    const first = await page();
    await reply
      .header('content-type', EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${exportFileName(first.signup.slug, format)}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Readable.from(exportText(format, first, page), { objectMode: false }));
  }
}
