import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { codeFromSlug, ProblemError, renderProblemPage } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';
import { PAGE_HEADERS } from '../pages/page-headers.js';

/** The human page behind each problem type URI ({problem_base}/<code-with-hyphens>), with every page's headers. */
@ApiExcludeController()
@Unmetered()
@Controller('problems')
export class ProblemPagesController {
  @Get(':slug')
  @Auth.public()
  page(@Param('slug') slug: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    const code = codeFromSlug(slug);
    if (!code) throw new ProblemError('not_found', 'No such problem type.');
    reply.headers({ ...PAGE_HEADERS, 'cache-control': 'public, max-age=300' });
    return renderProblemPage(code);
  }
}
