import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { CloudEvent, SignupView } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { call, newTenant, signupBody } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

describe('domain events on NATS for internal teams', () => {
  let nc: NatsConnection;
  const received: CloudEvent[] = [];
  const requestIds = new Map<string, string | undefined>();

  beforeAll(async () => {
    nc = await connect({ servers: stackInfo().natsUrl });
    const sub = nc.subscribe(`${stackInfo().natsPrefix}events.signup.>`);
    void (async () => {
      for await (const msg of sub) {
        const event = msg.json<CloudEvent>();
        received.push(event);
        requestIds.set(event.id, msg.headers?.get('x-request-id'));
      }
    })();
  });

  afterAll(() => nc.close());

  it('publishes signup.created and signup.published as CloudEvents with orgid and livemode', async () => {
    const tenant = await newTenant('pro');
    const created = await call<SignupView>('/signups', { key: tenant.key, body: signupBody() });
    await call(`/signups/${created.body.id}/publish`, { key: tenant.key, method: 'POST' });
    const mine = () => received.filter((e) => e.orgid === tenant.organization.id);
    await eventually(() =>
      expect(
        mine()
          .map((e) => e.type)
          .sort(),
      ).toEqual(['signup.created', 'signup.published']),
    );
    const event = mine().find((e) => e.type === 'signup.created')!;
    expect(event).toMatchObject({
      specversion: '1.0',
      source: 'signups-service',
      datacontenttype: 'application/json',
      orgid: tenant.organization.id,
      livemode: false,
      data: { id: created.body.id, title: created.body.title, status: 'draft' },
    });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the request id of the HTTP request that caused the event', async () => {
    const tenant = await newTenant('pro');
    const created = await call<SignupView>('/signups', {
      key: tenant.key,
      body: signupBody(),
      headers: { 'x-request-id': 'e2e-trace-event' },
    });
    await eventually(() => {
      const event = received.find((e) => e.type === 'signup.created' && (e.data as SignupView).id === created.body.id);
      expect(event).toBeDefined();
      expect(requestIds.get(event!.id)).toBe('e2e-trace-event');
    });
  });

  it('keeps every event in the JetStream stream for durable consumers', async () => {
    const info = await (await jetstreamManager(nc)).streams.info(stackInfo().streamName);
    expect(info.config.subjects).toEqual([`${stackInfo().natsPrefix}events.>`]);
    expect(info.state.messages).toBeGreaterThan(0);
  });
});
