import { Header } from '@nestjs/common';

/** The content type Fastify gives an answer it serializes from an object. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Marks a route that answers the JSON text of its reply as it crossed the bus (Bus.requestJson):
 * sent as it is, neither parsed nor serialized again, with the content type an object gets. A
 * problem is still answered as problem+json (the filter sets its own type).
 */
export const JsonTextAnswer = (): MethodDecorator => Header('content-type', JSON_CONTENT_TYPE);
