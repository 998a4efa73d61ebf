import { Agent, request } from 'node:http';
import type { Receiver } from '#libs/testing';
import { clientAddress, type Measurement, measurement, runHttp } from './load.js';
import type { Platform } from './platform.js';
import { newTenant, publishedSignup, registration } from './seed.js';

/** A published signup whose registrations are the events; its organization's endpoints receive them. */
interface Source {
  signupId: string;
  slotId: string;
}

export interface WebhookFixture {
  sources: Source[];
  receiver: Receiver;
  /** Endpoints of each organization: the deliveries each event makes. */
  endpointsEach: number;
}

/** How long deliveries may take to arrive after the last event before the missing ones count as errors. */
const DRAIN_TIMEOUT_MS = 120_000;
const AMPLE_CAPACITY = 100_000;

/**
 * `organizations` organizations, each with a published signup and `endpointsEach` endpoints on the
 * local receiver subscribed to participant.registered: every registration is one event, delivered
 * to each endpoint of its organization.
 */
export async function seedWebhooks(
  platform: Platform,
  receiver: Receiver,
  organizations: number,
  endpointsEach = 1,
  label = 'Bench webhooks',
): Promise<WebhookFixture> {
  const sources: Source[] = [];
  for (let i = 0; i < organizations; i += 1) {
    const tenant = await newTenant(platform, 'pro', `${label} ${i + 1}`);
    const signup = await publishedSignup(platform, tenant.key, { title: 'Webhook source', slots: 1, capacity: AMPLE_CAPACITY });
    for (let e = 0; e < endpointsEach; e += 1) {
      await platform.call('/webhooks', {
        key: tenant.key,
        body: { url: receiver.url(`/hooks/${label.replaceAll(' ', '-')}/${i}/${e}`), eventTypes: ['participant.registered'] },
        expect: 200,
      });
    }
    sources.push({ signupId: signup.id, slotId: signup.slotIds[0]! });
  }
  return { sources, receiver, endpointsEach };
}

let sent = 0;

function nextRegistration(fixture: WebhookFixture): { path: string; body: string } {
  const source = fixture.sources[sent++ % fixture.sources.length]!;
  return { path: `/signups/${source.signupId}/participants`, body: registration([{ type: 'slot', id: source.slotId }]) };
}

/**
 * Waits for the deliveries of the `expected` events committed since the receiver held `from`
 * requests, and measures them: deliveries per second from the first event's commit to the last
 * receipt, and each event's commit-to-receipt latency (its `timestamp`, set in the committing
 * transaction, to its arrival).
 */
async function deliveries(fixture: WebhookFixture, from: number, events: number, failedEvents: number): Promise<Measurement> {
  const { receiver, endpointsEach } = fixture;
  const wanted = (events - failedEvents) * endpointsEach;
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (receiver.received.length - from < wanted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const batch = receiver.received.slice(from);
  // One delivery per event and endpoint: an event's id is the same at each of its endpoints.
  const ids = new Set(batch.map((delivery) => `${delivery.path} ${String(delivery.headers['webhook-id'])}`));
  const latencies = batch.map((delivery) => delivery.at - Date.parse((JSON.parse(delivery.body) as { timestamp: string }).timestamp));
  const firstCommit = Math.min(...batch.map((delivery, i) => delivery.at - latencies[i]!));
  const lastReceipt = Math.max(...batch.map((delivery) => delivery.at));
  return {
    ...measurement(latencies, ids.size, lastReceipt - firstCommit, failedEvents * endpointsEach + Math.max(0, wanted - ids.size)),
    extra: { duplicates: batch.length - ids.size },
  };
}

/** `events` registrations as fast as 50 connections send them; deliveries per second, beside registrations per second, is the figure. */
export async function webhookBurst(platform: Platform, fixture: WebhookFixture, events: number): Promise<Measurement> {
  const from = fixture.receiver.received.length;
  const load = await runHttp({
    url: platform.info.gatewayUrl,
    connections: Math.min(50, events),
    amount: events,
    method: 'POST',
    request: () => {
      const next = nextRegistration(fixture);
      return { path: `${new URL(platform.info.baseUrl).pathname}${next.path}`, body: next.body };
    },
    connectionHeaders: (n) => ({ 'x-forwarded-for': clientAddress(n) }),
    expectStatus: [201],
  });
  const measured = await deliveries(fixture, from, events, load.errors);
  return { ...measured, extra: { ...measured.extra, registrationsPerSecond: load.requestsPerSecond } };
}

/**
 * POSTs a JSON body on a kept-alive connection and reads the answer; its status. Node's own
 * client: the load generator shares the machine, and fetch cost it more than twice the CPU.
 */
function post(agent: Agent, url: string, body: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } },
      (res) => {
        res.on('error', reject);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.resume();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Registrations at `rate` per second for `seconds`; the commit-to-receipt latency is the figure. */
export async function webhookPaced(platform: Platform, fixture: WebhookFixture, rate: number, seconds: number): Promise<Measurement> {
  const from = fixture.receiver.received.length;
  const total = Math.round(rate * seconds);
  const tickMs = 10;
  const started = performance.now();
  let issued = 0;
  let failed = 0;
  const pending: Promise<void>[] = [];
  const agent = new Agent({ keepAlive: true });
  while (issued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; issued < due; issued += 1) {
      const next = nextRegistration(fixture);
      pending.push(
        post(agent, `${platform.info.baseUrl}${next.path}`, next.body, clientAddress(issued)).then(
          (status) => {
            if (status !== 201) failed += 1;
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  agent.destroy();
  const measured = await deliveries(fixture, from, total, failed);
  return { ...measured, extra: { ...measured.extra, rate } };
}
