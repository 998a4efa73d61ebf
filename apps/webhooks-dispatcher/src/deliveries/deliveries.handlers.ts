import { Injectable } from '@nestjs/common';
import {
  type CursorList,
  decodeCursor,
  DEFAULT_DELIVERY_PAGE,
  DeliveryPageQueryDto,
  encodeCursor,
  type HandlersOf,
  pageOf,
  requireUuid,
  validateInput,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { ownerOf } from '../endpoints/endpoint.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { deliveryView } from './delivery.presenter.js';
import { DeliveryWorker } from './delivery-worker.js';

type DeliverySubject = 'webhooks.deliveries.list' | 'webhooks.deliveries.replay';

/** The delivery history of an endpoint, and replays. */
@Injectable()
export class DeliveriesHandlers {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
  ) {}

  handlers(): Pick<HandlersOf<'webhooks'>, DeliverySubject> {
    return {
      'webhooks.deliveries.list': async ({ principal, id, query }) => {
        const owner = ownerOf(principal);
        const { limit = DEFAULT_DELIVERY_PAGE, cursor } = await validateInput(DeliveryPageQueryDto, query, 'query');
        const endpointId = requireUuid(id);
        const list: CursorList = { list: 'webhooks.deliveries.list', ...owner, parentId: endpointId };
        const after = cursor === undefined ? undefined : decodeCursor(cursor, 'createdAt', list);
        const rows = await this.deliveries.list(owner, endpointId, limit + 1, after);
        if (!rows) throw new ProblemError('not_found', 'No webhook endpoint with this id.');
        return pageOf(rows.map(deliveryView), limit, (last) => encodeCursor({ createdAt: last.createdAt, id: last.id }, list));
      },
      'webhooks.deliveries.replay': async ({ principal, id }) => {
        const replayed = await this.deliveries.replay(ownerOf(principal), requireUuid(id));
        if (!replayed) throw new ProblemError('not_found', 'No webhook delivery with this id.');
        if (replayed === 'sending')
          throw new ProblemError('conflict', 'This delivery is being sent right now; replay it once the attempt is over.');
        this.worker.kick();
        return deliveryView(replayed);
      },
    };
  }
}
