import type { EntityManager } from 'typeorm';
import type { Outbox } from '#libs/runtime';
import type { PendingEvent } from '../common/pending-event.js';
import type { Signup } from './signup.js';

/**
 * Runs one conditional write of a signup in a transaction and, when it applied, records its event
 * (built from the row as written) in the same transaction: a write that does not apply changes
 * nothing and emits nothing (undefined).
 */
export function writeSignup(
  outbox: Outbox,
  write: (db: EntityManager) => Promise<Signup | undefined>,
  event: (signup: Signup) => PendingEvent,
): Promise<Signup | undefined> {
  return outbox.transaction(async (tx) => {
    const written = await write(tx.manager);
    if (written) await tx.emitAll([event(written)]);
    return written;
  });
}
