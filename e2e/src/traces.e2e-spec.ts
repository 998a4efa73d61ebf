import { randomBytes } from 'node:crypto';
import type { SignupView } from '#libs/contracts';
import { eventually, type ReceivedSpan } from '#libs/testing';
import { call, newTenant, signupBody } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

async function spansOf(traceId: string): Promise<ReceivedSpan[]> {
  return (await fetch(`${stackInfo().collectorUrl}/spans?traceId=${traceId}`)).json() as Promise<ReceivedSpan[]>;
}

function only(spans: ReceivedSpan[], match: Partial<ReceivedSpan>): ReceivedSpan {
  const found = spans.filter((span) => Object.entries(match).every(([key, value]) => span[key as keyof ReceivedSpan] === value));
  expect({ match, found: found.length }).toEqual({ match, found: 1 });
  return found[0]!;
}

describe('traces over OTLP', () => {
  it("follow one trace id from the caller's traceparent through the gateway, the service, the outbox and both event consumers", async () => {
    const tenant = await newTenant('pro');
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const created = await call<SignupView>('/signups', {
      key: tenant.key,
      body: signupBody(),
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(created.status).toBe(201);

    const consumers = ['reminders-service', 'webhooks-dispatcher'];
    const spans = await eventually(async () => {
      const found = await spansOf(traceId);
      expect(
        found
          .filter((span) => span.kind === CONSUMER)
          .map((span) => span.service)
          .sort(),
      ).toEqual(consumers);
      return found;
    }, 15_000);

    const edge = only(spans, { service: 'api-gateway', kind: SERVER, name: 'POST /api/v1/signups' });
    expect(edge).toMatchObject({ parentSpanId: callerSpanId, attributes: { 'http.response.status_code': 201 } });
    const request = only(spans, { service: 'api-gateway', kind: CLIENT, name: 'request signups.create', parentSpanId: edge.spanId });
    const handler = only(spans, { service: 'signups-service', kind: SERVER, name: 'process signups.create', parentSpanId: request.spanId });
    const published = only(spans, {
      service: 'signups-service',
      kind: PRODUCER,
      name: 'send signup.created',
      parentSpanId: handler.spanId,
    });
    for (const service of consumers)
      only(spans, { service, kind: CONSUMER, name: 'process signup.created', parentSpanId: published.spanId });
  });
});
