import { AsyncResource } from 'node:async_hooks';

/** Runs work for each item of a batch one after the other, each in the async context (request id, span) it was submitted in. */
export type InTurn<I> = <R>(work: (item: I) => Promise<R>) => Promise<R[]>;

export interface BatchesOptions<K, I, O> {
  /**
   * Runs one batch of a key (its items in the order they came, at most `max`), typically in one
   * transaction, and answers each item's outcome, in the same order. Throwing fails the batch.
   * Work that must run in an item's own context (its logs, spans, events) goes through `inTurn`.
   */
  run(key: K, items: readonly I[], inTurn: InTurn<I>): Promise<O[]>;
  max: number;
  /** Told when a batch of several items failed, before each of them runs again alone. */
  onBatchFailed(err: unknown, key: K, size: number): void;
}

interface Queued<I, O> {
  item: I;
  settle(outcome: { value: O } | { error: unknown }): void;
  /** Runs work in the async context the item was submitted in. */
  inContext<R>(work: () => Promise<R>): Promise<R>;
}

/** Runs work in the async context where this is called. */
const inCallerContext = () => AsyncResource.bind(<R>(work: () => Promise<R>): Promise<R> => work());

/**
 * Group commit: items of a key that come while a batch of that key runs wait, and then run
 * together in the next batch, so a busy key pays one transaction (one lock, one commit) for many
 * items while a lone item runs at once. When a batch fails, each of its items runs again in a
 * batch of its own, so only a failing item fails. Items of different keys never share a batch.
 * `run` is called outside every item's async context; it runs work in an item's own context
 * (request id, span) through `inTurn`.
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
      const queued: Queued<I, O> = {
        item,
        settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.value)),
        inContext: inCallerContext(),
      };
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
      outcomes = await this.options.run(
        key,
        batch.map((queued) => queued.item),
        async (work) => {
          const answers = [];
          for (const queued of batch) answers.push(await queued.inContext(() => work(queued.item)));
          return answers;
        },
      );
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

/**
 * How a batch decides its items on places reserved for all of them at once (reserveInTurn). `T`
 * is the batch's transaction, `R` what the reservation found.
 */
export interface ReservationOptions<K, I, O, T, R> {
  /** Runs a batch's work in one transaction; throwing rolls it back. */
  transaction(work: (tx: T) => Promise<O[]>): Promise<O[]>;
  /** Reserves `count` places on the key, which locks it until the transaction ends; what it found, the places counted. */
  reserve(tx: T, key: K, count: number): Promise<R>;
  /**
   * Decides one item, in its own async context, on the reservation as the items before it left
   * it: `unkept` of the places reserved are not kept so far (this item's and the later ones'
   * among them), so what was there before the batch plus the places kept is the reservation less
   * `unkept`.
   */
  decide(tx: T, reservation: R, unkept: number, item: I): Promise<O>;
  /** Whether an item's outcome kept its place. */
  kept(outcome: O): boolean;
  /** Whether an item's outcome wrote what the transaction must keep, place or not (by default: whether it kept its place). */
  wrote?(outcome: O): boolean;
  /** Gives back `count` places reserved and not kept. */
  release(tx: T, key: K, count: number): Promise<unknown>;
}

/** No item of the batch wrote anything: the transaction rolls back, and this carries the outcomes out of it. */
class NothingWritten<O> extends Error {
  constructor(readonly outcomes: O[]) {
    super('no item of the batch wrote anything');
  }
}

/**
 * The `run` of batches that reserve a place for each of their items at once (one statement locks
 * the key and counts them all), then decide the items one after the other, each in its own
 * async context, on the reservation as the items before it left it. The places not kept are
 * given back before the commit; a batch none of whose items wrote anything rolls back instead (it
 * changed nothing), and still answers each item's outcome.
 */
export function reserveInTurn<K, I, O, T, R>(options: ReservationOptions<K, I, O, T, R>): BatchesOptions<K, I, O>['run'] {
  return (key, items, inTurn) =>
    options
      .transaction(async (tx) => {
        const reservation = await options.reserve(tx, key, items.length);
        const wrote = options.wrote ?? options.kept;
        let kept = 0;
        let written = 0;
        const outcomes = await inTurn(async (item) => {
          const outcome = await options.decide(tx, reservation, items.length - kept, item);
          if (options.kept(outcome)) kept += 1;
          if (wrote(outcome)) written += 1;
          return outcome;
        });
        if (written === 0) throw new NothingWritten(outcomes);
        if (kept < items.length) await options.release(tx, key, items.length - kept);
        return outcomes;
      })
      .catch((err: unknown) => (err instanceof NothingWritten ? (err.outcomes as O[]) : Promise.reject(err)));
}
