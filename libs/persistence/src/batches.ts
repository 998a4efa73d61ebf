import { AsyncResource } from 'node:async_hooks';

export interface BatchesOptions<K, I, O> {
  /**
   * Runs one batch of a key (its items in the order they came, at most `max`), typically in one
   * transaction, and answers each item's outcome, in the same order. Throwing fails the batch.
   */
  run(key: K, items: readonly I[]): Promise<O[]>;
  max: number;
  /** Told when a batch of several items failed, before each of them runs again alone. */
  onBatchFailed(err: unknown, key: K, size: number): void;
}

interface Queued<I, O> {
  item: I;
  settle(outcome: { value: O } | { error: unknown }): void;
}

/**
 * Group commit: items of a key that come while a batch of that key runs wait, and then run
 * together in the next batch, so a busy key pays one transaction (one lock, one commit) for many
 * items while a lone item runs at once. When a batch fails, each of its items runs again in a
 * batch of its own, so only a failing item fails. Items of different keys never share a batch.
 * `run` is called outside every item's async context: an item that needs its own (request id,
 * span) carries a function bound to it (AsyncResource.bind).
 */
export class Batches<K, I, O> {
  private readonly queues = new Map<K, Queued<I, O>[]>();
  private readonly drain: (key: K, queue: Queued<I, O>[]) => Promise<void>;

  constructor(private readonly options: BatchesOptions<K, I, O>) {
    // Bound where the batches are made, so a batch runs in none of its items' async context.
    this.drain = AsyncResource.bind((key: K, queue: Queued<I, O>[]) => this.drainQueue(key, queue));
  }

  /** Runs the item in the key's next batch; its outcome, or the error that failed it alone. */
  submit(key: K, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queued: Queued<I, O> = { item, settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.value)) };
      const queue = this.queues.get(key);
      if (queue) {
        queue.push(queued);
        return;
      }
      const fresh = [queued];
      this.queues.set(key, fresh);
      void this.drain(key, fresh);
    });
  }

  private async drainQueue(key: K, queue: Queued<I, O>[]): Promise<void> {
    try {
      while (queue.length > 0) await this.runBatch(key, queue.splice(0, this.options.max));
    } finally {
      this.queues.delete(key);
    }
  }

  /** Runs a batch and settles each of its items; never throws. */
  private async runBatch(key: K, batch: Queued<I, O>[]): Promise<void> {
    let outcomes: O[];
    try {
      outcomes = await this.options.run(key, batch.map((queued) => queued.item));
    } catch (err) {
      await this.runAlone(key, batch, err);
      return;
    }
    // After a commit: a wrong answer fails every item rather than running any of them again.
    if (outcomes.length !== batch.length) {
      const error = new Error(`a batch of ${batch.length} items answered ${outcomes.length} outcomes`);
      for (const queued of batch) queued.settle({ error });
      return;
    }
    batch.forEach((queued, i) => queued.settle({ value: outcomes[i]! }));
  }

  /** A failed batch: a lone item fails; several run again, each alone. */
  private async runAlone(key: K, batch: Queued<I, O>[], err: unknown): Promise<void> {
    if (batch.length === 1) {
      batch[0]!.settle({ error: err });
      return;
    }
    try {
      this.options.onBatchFailed(err, key, batch.length);
    } catch {
      // Only a report failed: the items still run again.
    }
    for (const queued of batch) await this.runBatch(key, [queued]);
  }
}
