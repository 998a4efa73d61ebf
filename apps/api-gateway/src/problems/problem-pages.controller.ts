import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { codeFromSlug, ProblemError, renderProblemPage } from '#libs/problem';
import { Auth, Unmetered } from '#libs/scopes';

/** The human page behind each problem type URI ({problem_base}/<code-with-hyphens>). */
@ApiExcludeController()
@Unmetered()
@Controller('problems')
export class ProblemPagesController {
  @Get(':slug')
  @Auth.public()
  @Header('content-type', 'text/html; charset=utf-8')
  page(@Param('slug') slug: string): string {
    const code = codeFromSlug(slug);
    if (!code) throw new ProblemError('not_found', 'No such problem type.');
    return renderProblemPage(code);
  }
}
