import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '#libs/observability';
import { LOGGER } from '#libs/runtime';
import { EventsRepository } from './events.repository.js';

/** The newest events the boot check reads: enough to catch a restore before many new events follow it. */
const NEWEST_CHECKED = 1000;

/**
 * The boot check of the event log's positions: after a restore from a logical copy, the log holds
 * transaction ids of the old cluster, above the new one's counter, so readers see neither those
 * rows nor the events after them until someone truncates the table (docs/deploy.md). Logged as an
 * error, not a refusal to start: webhooks still deliver.
 */
@Injectable()
export class LogFrontier {
  constructor(
    private readonly events: EventsRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** True when the log holds positions ahead of the server (and says so in the log). */
  async check(): Promise<boolean> {
    const ahead = await this.events.recordedAhead(NEWEST_CHECKED);
    if (ahead > 0)
      this.logger.error(
        { ahead },
        'the event log holds transaction ids ahead of this database server (restored from a logical copy?): ' +
          'readers see no new event until webhooks.events is truncated (docs/deploy.md)',
      );
    return ahead > 0;
  }
}
