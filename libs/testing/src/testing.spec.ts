import { createServer } from 'node:net';
import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, ONE_MIB, repeatedTo } from './adversarial-input.js';
import { keyboardUnreachable, launchChromium } from './browser.js';
import { eventually } from './eventually.js';
import { freePorts } from './ports.js';

describe('eventually', () => {
  it('retries until the assertion passes', async () => {
    let calls = 0;
    await expect(
      eventually(
        () => {
          calls += 1;
          if (calls < 3) throw new Error('not yet');
          return calls;
        },
        1000,
        1,
      ),
    ).resolves.toBe(3);
  });

  it('rethrows the last failure when time is up', async () => {
    await expect(
      eventually(
        () => {
          throw new Error('never');
        },
        20,
        5,
      ),
    ).rejects.toThrow('never');
  });
});

describe('freePorts', () => {
  it('returns distinct ports that can be listened on', async () => {
    const ports = await freePorts(3);
    expect(new Set(ports).size).toBe(3);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((r) => server.close(r));
  });
});

describe('cpuMillisOf', () => {
  const dots = repeatedTo(ONE_MIB, '.', 'a@', '@');

  it('measures a linear pattern over a mebibyte within the budget', () => {
    expect(cpuMillisOf(() => /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(dots))).toBeLessThan(ADVERSARIAL_BUDGET_MS);
  });

  it('interrupts a quadratic pattern instead of waiting for it', () => {
    const started = Date.now();
    expect(() => cpuMillisOf(() => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(dots), { interruptAfterMs: 200 })).toThrow(
      'Still running after 200 ms',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('keyboardUnreachable', () => {
  it('names the controls the Tab key skips, and counts a radio group as one stop', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent(`<main>
<a href="/first">First</a>
<a href="/skipped" tabindex="-1">Skipped</a>
<fieldset><input type="radio" name="size" id="s" value="s" checked><label for="s">S</label>
<input type="radio" name="size" id="m" value="m"><label for="m">M</label></fieldset>
<label for="hidden-one">Hidden</label><input id="hidden-one" name="hidden-one" style="display:none">
<button type="button" disabled>Off</button>
<button type="submit">Save</button>
</main>`);
      expect(await keyboardUnreachable(page)).toEqual(['not reached by the keyboard: a[href=/skipped] "Skipped"']);
    } finally {
      await browser.close();
    }
  }, 30_000);
});
