import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Unmetered } from '#libs/scopes';
import { STYLESHEET, STYLESHEET_HEADERS, STYLESHEET_PATH } from '#libs/web';

/** The stylesheet's route, outside the REST prefix; any other /assets/ address is an unknown route (404). */
export const ASSETS_ROUTE = STYLESHEET_PATH.slice(1);

/**
 * The pages' stylesheet at its hashed address. Unmetered like the problem pages: a browser fetches
 * it once for every page it caches it for, so a page view costs the one call of the page.
 */
@ApiExcludeController()
@Unmetered()
@Controller()
export class AssetsController {
  @Get(ASSETS_ROUTE)
  @Auth.public()
  stylesheet(@Res() reply: FastifyReply): void {
    void reply.headers(STYLESHEET_HEADERS).send(STYLESHEET);
  }
}
