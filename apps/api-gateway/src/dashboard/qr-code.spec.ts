import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { ProblemError } from '#libs/problem';
import { QrCodeTooLong, qrPng, qrSvg } from './qr-code.js';

const URL = 'https://signups.example.org/s/8f14e45f-ceea-467f-a0e6-3b7d1d2c9a11?utm_source=flyer&lang=en';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TOO_LONG = `https://signups.example.org/s/x?q=${'a'.repeat(2400)}`;

/** Checks the text is one element of balanced tags, quoted attributes and escaped text (no DTD, comments or CDATA). */
function expectWellFormedXml(xml: string): void {
  const stack: string[] = [];
  let roots = 0;
  for (const token of xml
    .trim()
    .split(/(<[^>]*>)/)
    .filter(Boolean)) {
    const text = !token.startsWith('<');
    const tag = /^<(\/)?([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/)?>$/.exec(token);
    expect(text || tag !== null).toBe(true);
    expect(/[<>]|&(?!(?:amp|lt|gt|quot|apos|#\d+);)/.test(text ? token : (tag![3] ?? '').replace(/>/g, ''))).toBe(false);
    if (text) {
      expect(stack.length).toBeGreaterThan(0);
      continue;
    }
    const [, closing, name, , selfClosing] = tag!;
    if (closing) expect(stack.pop()).toBe(name);
    else {
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(name!);
    }
  }
  expect([stack, roots]).toEqual([[], 1]);
}

function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function decoded(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  // jsqr is CommonJS whose exports are the function and, as typed, its `default`.
  return jsqr.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

describe('qrPng', () => {
  // Drawn once: a flyer's PNG takes seconds under jest's module sandbox (some milliseconds in the service).
  let flyer: Buffer;

  beforeAll(async () => {
    flyer = await qrPng(URL);
  });

  it('draws a square PNG of whole pixels per module, as near 1024 pixels as fits', () => {
    const png = flyer;
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // The URL makes a 41-module symbol (version 6 at level M), 49 with its quiet zone: 20 pixels each.
    expect(pngSize(png)).toEqual({ width: 49 * 20, height: 49 * 20 });
  });

  it('draws at most the size asked for', async () => {
    expect(pngSize(await qrPng(URL, 300))).toEqual({ width: 49 * 6, height: 49 * 6 });
    expect(pngSize(await qrPng(URL, 256))).toEqual({ width: 49 * 5, height: 49 * 5 });
  });

  it('fits the largest symbol in the smallest size', async () => {
    const longest = `https://e.org/?q=${'a'.repeat(2331 - 17)}`;
    expect(pngSize(await qrPng(longest, 256))).toEqual({ width: 185, height: 185 });
  });

  it('reads back as the URL', async () => {
    expect(decoded(flyer)).toBe(URL);
    expect(decoded(await qrPng(URL, 256))).toBe(URL);
  });

  it('keeps a white quiet zone of at least 4 modules around the symbol', async () => {
    const image = PNG.sync.read(await qrPng(URL, 300));
    const inner = 4 * 6;
    const dark: number[][] = [];
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const inZone = Math.min(x, y, image.width - 1 - x, image.height - 1 - y) < inner;
        if (inZone && image.data[(y * image.width + x) * 4] !== 255) dark.push([x, y]);
      }
    }
    expect(dark).toEqual([]);
    // The finder pattern starts right inside it.
    expect(image.data[(inner * image.width + inner) * 4]).toBe(0);
  });

  it('is the same bytes for the same URL', async () => {
    expect((await qrPng(URL, 300)).equals(await qrPng(URL, 300))).toBe(true);
  });

  it.each([0, 255, 4097, 512.5, Number.NaN])('refuses a size of %s as validation_failed on size', async (size) => {
    await expect(qrPng(URL, size)).rejects.toMatchObject({ code: 'validation_failed', status: 422, errors: [{ path: 'size' }] });
  });

  it('refuses a URL too long for any QR code as a 422, not a crash', async () => {
    const error = await qrPng(TOO_LONG).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QrCodeTooLong);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ code: 'validation_failed', status: 422, errors: [{ path: 'url' }] });
  });
});

describe('qrSvg', () => {
  it('is a well-formed SVG document titled with the URL, escaped', async () => {
    const svg = await qrSvg(URL);
    expectWellFormedXml(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 49 49" [^>]*role="img"><title>/);
    expect(svg).toContain(`<title>${URL.replace('&', '&amp;')}</title>`);
  });

  it('escapes markup in the title', async () => {
    const svg = await qrSvg('https://example.org/?q=<script>"x"</script>');
    expectWellFormedXml(svg);
    expect(svg).toContain('<title>https://example.org/?q=&lt;script&gt;&quot;x&quot;&lt;/script&gt;</title>');
  });

  it('leaves 4 modules of quiet zone: the first dark module starts at 4, 4', async () => {
    const svg = await qrSvg(URL);
    expect(svg).toMatch(/<path stroke="#000000" d="M4 4\.5h7/);
  });

  it('is the same text for the same URL, and another for another', async () => {
    expect(await qrSvg(URL)).toBe(await qrSvg(URL));
    expect(await qrSvg(`${URL}2`)).not.toBe(await qrSvg(URL));
  });

  it('refuses a URL too long for any QR code as a 422, not a crash', async () => {
    await expect(qrSvg(TOO_LONG)).rejects.toBeInstanceOf(QrCodeTooLong);
  });

  it('refuses an empty URL as validation_failed on url', async () => {
    await expect(qrSvg('')).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'url' }] });
    await expect(qrPng('')).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'url' }] });
  });
});
