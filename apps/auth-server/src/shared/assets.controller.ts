import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth } from '#libs/scopes';
import { STYLESHEET, STYLESHEET_HEADERS, STYLESHEET_PATH } from '#libs/web';

/** The pages' stylesheet at its hashed address; any other /assets/ address is an unknown route (404). */
@Controller()
export class AssetsController {
  @Get(STYLESHEET_PATH.slice(1))
  @Auth.public()
  stylesheet(@Res() reply: FastifyReply): void {
    void reply.headers(STYLESHEET_HEADERS).send(STYLESHEET);
  }
}
