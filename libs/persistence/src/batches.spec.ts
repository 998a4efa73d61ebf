import { AsyncLocalStorage } from 'node:async_hooks';
import { Batches, reserveInTurn } from './batches.js';

/** A batch run the test finishes by hand: its key, its items, and how to answer or fail it. */
interface Run {
  key: string;
  items: readonly string[];
  finish(outcomes?: string[]): void;
  fail(err: Error): void;
}

function recorder(max = 3) {
  const runs: Run[] = [];
  const failures: { key: string; size: number }[] = [];
  const batches = new Batches<string, string, string>({
    run: (key, items) =>
      new Promise<string[]>((resolve, reject) => {
        runs.push({ key, items, finish: (outcomes = items.map((item) => `${item}!`)) => resolve(outcomes), fail: reject });
      }),
    max,
    onBatchFailed: (_err, key, size) => failures.push({ key, size }),
  });
  return { batches, runs, failures };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Batches', () => {
  it('runs a lone item at once, in a batch of its own', async () => {
    const { batches, runs } = recorder();
    const outcome = batches.submit('a', 'x');
    expect(runs.map((r) => r.items)).toEqual([['x']]);
    runs[0]!.finish();
    await expect(outcome).resolves.toBe('x!');
  });

  it('runs the items that came during a batch together in the next one, in order, at most max', async () => {
    const { batches, runs } = recorder(3);
    const outcomes = ['1', '2', '3', '4', '5', '6'].map((item) => batches.submit('a', item));
    expect(runs.map((r) => r.items)).toEqual([['1']]);
    runs[0]!.finish();
    await settle();
    expect(runs.map((r) => r.items)).toEqual([['1'], ['2', '3', '4']]);
    runs[1]!.finish();
    await settle();
    expect(runs.map((r) => r.items)).toEqual([['1'], ['2', '3', '4'], ['5', '6']]);
    runs[2]!.finish();
    await expect(Promise.all(outcomes)).resolves.toEqual(['1!', '2!', '3!', '4!', '5!', '6!']);
  });

  it('never puts items of different keys in one batch, and runs the keys side by side', async () => {
    const { batches, runs } = recorder();
    const outcomes = [batches.submit('a', '1'), batches.submit('b', '2'), batches.submit('a', '3')];
    expect(runs.map((r) => [r.key, r.items])).toEqual([
      ['a', ['1']],
      ['b', ['2']],
    ]);
    runs[1]!.finish();
    runs[0]!.finish();
    await settle();
    expect(runs.map((r) => [r.key, r.items])).toEqual([
      ['a', ['1']],
      ['b', ['2']],
      ['a', ['3']],
    ]);
    runs[2]!.finish();
    await expect(Promise.all(outcomes)).resolves.toEqual(['1!', '2!', '3!']);
  });

  it('runs each item of a failed batch again alone, so only the failing item fails', async () => {
    const { batches, runs, failures } = recorder();
    const first = batches.submit('a', '1');
    const rest = ['2', '3'].map((item) =>
      batches.submit('a', item).then(
        (value) => ({ value }),
        (err: Error) => ({ error: err.message }),
      ),
    );
    runs[0]!.finish();
    await settle();
    runs[1]!.fail(new Error('batch failed'));
    await settle();
    expect(failures).toEqual([{ key: 'a', size: 2 }]);
    expect(runs.slice(2).map((r) => r.items)).toEqual([['2']]);
    runs[2]!.fail(new Error('2 failed'));
    await settle();
    expect(runs.slice(3).map((r) => r.items)).toEqual([['3']]);
    runs[3]!.finish();
    await expect(first).resolves.toBe('1!');
    await expect(Promise.all(rest)).resolves.toEqual([{ error: '2 failed' }, { value: '3!' }]);
    expect(failures).toHaveLength(1);
  });

  it('still runs the items of a failed batch alone when its report throws', async () => {
    const runs: string[][] = [];
    const batches = new Batches<string, string, string>({
      run: async (_key, items) => {
        runs.push([...items]);
        if (items.length > 1) throw new Error('batch failed');
        return [...items];
      },
      max: 10,
      onBatchFailed: () => {
        throw new Error('report failed');
      },
    });
    await expect(Promise.all(['1', '2', '3'].map((item) => batches.submit('a', item)))).resolves.toEqual(['1', '2', '3']);
    expect(runs).toEqual([['1'], ['2', '3'], ['2'], ['3']]);
  });

  it('fails every item of a batch whose answer does not match it, without running any again', async () => {
    const runs: string[][] = [];
    const batches = new Batches<string, string, string>({
      run: async (_key, items) => {
        runs.push([...items]);
        return items.length > 1 ? ['only one'] : [...items];
      },
      max: 10,
      onBatchFailed: () => undefined,
    });
    const outcomes = await Promise.allSettled(['1', '2', '3'].map((item) => batches.submit('a', item)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(runs).toEqual([['1'], ['2', '3']]);
    await expect(batches.submit('a', '4')).resolves.toBe('4');
  });

  it('takes a key up again after its queue emptied', async () => {
    const { batches, runs } = recorder();
    const first = batches.submit('a', '1');
    runs[0]!.finish();
    await first;
    const second = batches.submit('a', '2');
    await settle();
    expect(runs.map((r) => r.items)).toEqual([['1'], ['2']]);
    runs[1]!.finish();
    await expect(second).resolves.toBe('2!');
  });

  it('runs a batch outside the async context of the item that started it', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const batches = new Batches<string, string, string>({
      run: async (_key, items) => {
        seen.push(context.getStore());
        return [...items];
      },
      max: 10,
      onBatchFailed: () => undefined,
    });
    await context.run('request-1', () => batches.submit('a', 'x'));
    expect(seen).toEqual([undefined]);
  });

  it('runs the work of each item in turn, each in the async context it was submitted in', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const batches = new Batches<string, string, string>({
      run: async (_key, items, inTurn) => {
        if (items[0] === '1') await first;
        return inTurn(async (item) => {
          seen.push(`${item} in ${context.getStore()}`);
          await settle();
          seen.push(`${item} done`);
          return item;
        });
      },
      max: 10,
      onBatchFailed: () => undefined,
    });
    const outcomes = ['1', '2', '3'].map((item) => context.run(`request-${item}`, () => batches.submit('a', item)));
    release();
    await expect(Promise.all(outcomes)).resolves.toEqual(['1', '2', '3']);
    expect(seen).toEqual(['1 in request-1', '1 done', '2 in request-2', '2 done', '3 in request-3', '3 done']);
  });
});

describe('reserveInTurn', () => {
  /** Places of a counter reserved by a batch's transaction; a rollback undoes its writes. */
  function counter() {
    let count = 10;
    const log: string[] = [];
    const batches = new Batches<string, { keep: boolean; name: string }, string>({
      run: reserveInTurn({
        transaction: async (work: (tx: { writes: number[] }) => Promise<string[]>) => {
          const tx = { writes: [] as number[] };
          try {
            const outcomes = await work(tx);
            count += tx.writes.reduce((sum, delta) => sum + delta, 0);
            log.push('commit');
            return outcomes;
          } catch (err) {
            log.push('rollback');
            throw err;
          }
        },
        reserve: async (tx, _key, places) => {
          tx.writes.push(places);
          log.push(`reserve ${places}`);
          return count + places;
        },
        decide: async (_tx, reserved, unkept, item) => `${item.name}@${reserved - unkept}${item.keep ? '' : ' refused'}`,
        kept: (outcome) => !outcome.endsWith('refused'),
        release: async (tx, _key, places) => {
          tx.writes.push(-places);
          log.push(`release ${places}`);
        },
      }),
      max: 10,
      onBatchFailed: () => undefined,
    });
    return { batches, log, count: () => count };
  }

  it('decides each item on what the items before it kept, and gives back the places not kept before the commit', async () => {
    const { batches, log, count } = counter();
    const blocker = batches.submit('a', { keep: true, name: 'x' });
    const outcomes = [
      batches.submit('a', { keep: true, name: 'a' }),
      batches.submit('a', { keep: false, name: 'b' }),
      batches.submit('a', { keep: true, name: 'c' }),
    ];
    await expect(blocker).resolves.toBe('x@10');
    await expect(Promise.all(outcomes)).resolves.toEqual(['a@11', 'b@12 refused', 'c@12']);
    expect(log).toEqual(['reserve 1', 'commit', 'reserve 3', 'release 1', 'commit']);
    expect(count()).toBe(13);
  });

  it('rolls back a batch that kept no place, and still answers each item', async () => {
    const { batches, log, count } = counter();
    const blocker = batches.submit('a', { keep: false, name: 'x' });
    const outcomes = [batches.submit('a', { keep: false, name: 'a' }), batches.submit('a', { keep: false, name: 'b' })];
    await expect(blocker).resolves.toBe('x@10 refused');
    await expect(Promise.all(outcomes)).resolves.toEqual(['a@10 refused', 'b@10 refused']);
    expect(log).toEqual(['reserve 1', 'rollback', 'reserve 2', 'rollback']);
    expect(count()).toBe(10);
  });
});
