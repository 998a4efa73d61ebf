import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '#libs/testing';

const NATS_SERVER = '/usr/sbin/nats-server';
const START_TIMEOUT_MS = 10_000;

export interface PrivateNats {
  url: string;
  /** Kills the server at once (an outage); JetStream keeps its store on disk. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and deletes its store. */
  close(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A NATS server with JetStream of a test's own, which it can take down and bring back without
 * touching the machine's; `config` adds to its configuration (e.g. an authorization block).
 */
export async function startPrivateNats(options: { config?: string } = {}): Promise<PrivateNats> {
  const [port] = await freePorts(1);
  const store = mkdtempSync(join(tmpdir(), 'nats-'));
  const configArgs: string[] = [];
  if (options.config !== undefined) {
    const configFile = join(store, 'nats.conf');
    writeFileSync(configFile, options.config);
    configArgs.push('-c', configFile);
  }
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(NATS_SERVER, [...configArgs, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(store, 'js')], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await accepts(port))) {
      if (Date.now() > deadline) throw new Error('the private nats-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill,
    start,
    async close() {
      await kill();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
