import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '#libs/contracts';

const catalog = readFileSync(join(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');

describe('docs/webhooks.md', () => {
  it('documents exactly the event types an endpoint can subscribe to', () => {
    const documented = [...catalog.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});
