import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { CloudEvent, SignupView } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { call, newTenant, signupBody } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

describe('domain events on NATS for internal teams', () => {
  let nc: NatsConnection;
  const received: CloudEvent[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: stackInfo().natsUrl });
    const sub = nc.subscribe(`${stackInfo().natsPrefix}events.signup.>`);
    void (async () => {
      for await (const msg of sub) received.push(msg.json<CloudEvent>());
    })();
  });

  afterAll(() => nc.close());

  it('publishes signup.created and signup.published as CloudEvents with orgid and livemode', async () => {
    const tenant = await newTenant('pro');
    const created = await call<SignupView>('/signups', { key: tenant.key, body: signupBody() });
    await call(`/signups/${created.body.id}/publish`, { key: tenant.key, method: 'POST' });
    const mine = () => received.filter((e) => e.orgid === tenant.organization.id);
    await eventually(() => expect(mine().map((e) => e.type).sort()).toEqual(['signup.created', 'signup.published']));
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

  it('keeps every event in the JetStream stream for durable consumers', async () => {
    const info = await (await jetstreamManager(nc)).streams.info(stackInfo().streamName);
    expect(info.config.subjects).toEqual([`${stackInfo().natsPrefix}events.>`]);
    expect(info.state.messages).toBeGreaterThan(0);
  });
});
