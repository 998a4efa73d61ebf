import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type {} from './global-setup.js';

/** Stops the stack and its trace collector, deletes its stream, its rate limit counters and its database, and removes its work folder. */
export default async function globalTeardown(): Promise<void> {
  const stack = globalThis.e2eStack;
  if (!stack) return;
  const exited = new Promise((resolve) => stack.child.once('exit', resolve));
  stack.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  const nc = await connect({ servers: stack.info.natsUrl });
  try {
    await (await jetstreamManager(nc)).streams.delete(stack.info.streamName);
  } catch {
    // the stream may never have been created if the stack failed early
  } finally {
    await nc.close();
  }
  await deleteKeys(stack.info.env.REDIS_URL!, `${stack.info.env.RATE_LIMIT_PREFIX}:*`);
  await stack.database.drop();
  await stack.collector.close();
  await new Promise((resolve) => stack.log.end(resolve));
  rmSync(stack.workDir, { recursive: true, force: true });
}

async function deleteKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}
