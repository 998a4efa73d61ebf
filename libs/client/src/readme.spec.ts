import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const CLIENT = join(import.meta.dirname, '..');

describe("the client's README", () => {
  it('shows the sync loop exactly as examples/sync.ts is (which the e2e runs against the stack)', () => {
    const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## A complete sync loop\n'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(join(CLIENT, 'examples/sync.ts'), 'utf8'));
  });
});
