import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from '#libs/observability';
import { APP_CONFIG, LOGGER, Outbox } from '#libs/runtime';
import type { PendingEvent } from '../common/pending-event.js';
import { participantEvents } from '../participants/participant.presenter.js';
import { ParticipantsRepository } from '../participants/participants.repository.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import { transitionEvent } from '../signups/slot-item.presenter.js';
import type { SignupsServiceConfig } from '../signups-service.config.js';
import { type Line, StockLedger } from './waitlist.js';
import { WaitlistRepository } from './waitlist.repository.js';
import { Waitlists } from './waitlists.js';

/** Signups looked at per round; rounds go on while they expire offers. */
const SIGNUPS_PER_ROUND = 50;

/**
 * Passes on offers nobody answered: every OFFER_SWEEP_MS, any replica looks for offers past
 * their time and, per signup, in one transaction that locks the signup row for update (as every
 * write of its places does), claims them (FOR UPDATE SKIP LOCKED: replicas never expire one
 * twice), ends each (participant.offer_expired; a participant left with nothing is cancelled,
 * participant.canceled) and gives the places to the next in line. The offers are rows with their due time, so a
 * restart loses none: the next sweep finds them.
 */
@Injectable()
export class OfferExpiry implements OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopping = false;

  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly entries: WaitlistRepository,
    private readonly waitlists: Waitlists,
    private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: SignupsServiceConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopping = false;
    this.timer ??= setInterval(
      () => void this.sweep().catch((err: unknown) => this.logger.warn({ err }, 'offer sweep failed')),
      this.config.offerSweepMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One sweep (or the one running): how many offers it expired. */
  sweep(): Promise<number> {
    this.running ??= (async () => {
      try {
        let expired = 0;
        for (;;) {
          const signupIds = await this.entries.signupsWithExpiredOffers(SIGNUPS_PER_ROUND);
          let round = 0;
          for (const signupId of signupIds) {
            // One signup that fails (logged) holds up none of the others.
            round += await this.expire(signupId).catch((err: unknown) => {
              this.logger.warn({ err, signupId }, 'cannot expire the offers of a signup');
              return 0;
            });
          }
          expired += round;
          // None left, or only offers another replica is expiring right now (claimed, so skipped).
          if (round === 0 || this.stopping) return expired;
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private expire(signupId: string): Promise<number> {
    return this.outbox.transaction(async (tx) => {
      const signup = await this.signups.lock(tx.manager, signupId, 'update');
      if (!signup) return 0;
      const due = await this.entries.claimExpiredOffers(tx.manager, signupId);
      const ledger = new StockLedger();
      const freed: Line[] = [];
      const events: PendingEvent[] = [];
      for (const entry of due) {
        freed.push(...(await this.waitlists.end(tx.manager, signup, entry, 'expired', ledger)));
        const participant = await this.participants.read(tx.manager, entry.participantId);
        events.push(...participantEvents('participant.offer_expired', participant, signup, []));
        if (participant.status === 'cancelled') events.push(...participantEvents('participant.canceled', participant, signup, []));
      }
      events.push(...(await this.waitlists.fill(tx.manager, signup, freed, ledger)));
      await tx.emitAll([...events, ...ledger.transitions().map(({ target, transition }) => transitionEvent(target, transition, signup))]);
      return due.length;
    });
  }
}
