import type { CreateItemInput, CreateSlotInput, ItemView, SignupView, SlotView } from '#libs/contracts';
import { call, signupBody } from './api.js';

export interface SignupFixture {
  signup: SignupView;
  slots: SlotView[];
  items: ItemView[];
}

export interface SignupFixtureOptions {
  /** Fields of POST /signups. */
  fields?: Record<string, unknown>;
  slots?: CreateSlotInput[];
  items?: CreateItemInput[];
  /** Published unless false. */
  publish?: boolean;
}

async function expectStatus<T>(status: number, res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const answer = await res;
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A signup with slots and items, published unless asked otherwise, created with `key`. */
export async function newSignup(key: string, options: SignupFixtureOptions = {}): Promise<SignupFixture> {
  let signup = await expectStatus(201, call<SignupView>('/signups', { key, body: signupBody(options.fields) }), 'create signup');
  const slots = options.slots?.length
    ? (
        await expectStatus(
          201,
          call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, { key, body: { slots: options.slots } }),
          'add slots',
        )
      ).data
    : [];
  const items = options.items?.length
    ? (
        await expectStatus(
          201,
          call<{ data: ItemView[] }>(`/signups/${signup.id}/items`, { key, body: { items: options.items } }),
          'add items',
        )
      ).data
    : [];
  if (options.publish !== false) {
    signup = await expectStatus(200, call<SignupView>(`/signups/${signup.id}/publish`, { key, method: 'POST' }), 'publish');
  }
  return { signup, slots, items };
}

let people = 0;

/** A registration body for a fresh person. */
export function person<O extends Record<string, unknown> = Record<never, never>>(
  selections: { type: 'slot' | 'item'; id: string; quantity?: number }[] = [],
  overrides: O = {} as O,
): { name: string; email: string; selections: typeof selections } & O {
  people += 1;
  return { name: `Person ${people}`, email: `person${people}.${Date.now()}@example.com`, selections, ...overrides };
}
