import QRCode from 'qrcode';
import { ProblemError } from '#libs/problem';
import { escapeHtml } from '#libs/web';

/** Error correction M (about 15% of the symbol may be lost) and the standard quiet zone of 4 modules. */
const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/** The side of a flyer's PNG, in pixels at most: sharp when printed a few centimetres wide. */
export const QR_PNG_SIZE = 1024;
/** The largest symbol with its quiet zone is 185 modules a side: at least one pixel each. */
export const QR_PNG_SIZE_MIN = 256;
export const QR_PNG_SIZE_MAX = 4096;

/** The text does not fit in the largest QR code at level M (2,331 bytes): 422 validation_failed on `url`. */
export class QrCodeTooLong extends ProblemError {
  constructor() {
    super('validation_failed', 'The address is too long for a QR code.', {
      errors: [{ path: 'url', message: 'Too long for a QR code: at most 2331 bytes.' }],
    });
  }
}

/** Runs an encoding of `url`: an empty one, or one too long, is a 422 rather than the library's plain Error (a 500). */
async function encoded<T>(url: string, make: () => Promise<T>): Promise<T> {
  if (url === '') throw ProblemError.validation([{ path: 'url', message: 'An address is required.' }]);
  try {
    return await make();
  } catch (error) {
    if (error instanceof Error && /too big to be stored/.test(error.message)) throw new QrCodeTooLong();
    throw error;
  }
}

/** An SVG document of the QR code of `url`, titled with the URL for screen readers. Same URL, same bytes. */
export function qrSvg(url: string): Promise<string> {
  return remembered(`svg ${url}`, async () => {
    const svg = await encoded(url, () => QRCode.toString(url, { ...OPTIONS, type: 'svg' }));
    return svg.replace(/^<svg ([^>]*)>/, (_, attributes: string) => `<svg ${attributes} role="img"><title>${escapeHtml(url)}</title>`);
  });
}

/**
 * A square PNG of the QR code of `url` (for flyers), at most `size` pixels a side: each module gets
 * the most whole pixels that fit, so edges stay sharp and the image may be a little smaller than
 * `size`. Same URL and size, same bytes.
 */
export function qrPng(url: string, size = QR_PNG_SIZE): Promise<Buffer> {
  if (!Number.isInteger(size) || size < QR_PNG_SIZE_MIN || size > QR_PNG_SIZE_MAX) {
    return Promise.reject(
      ProblemError.validation([{ path: 'size', message: `An integer from ${QR_PNG_SIZE_MIN} to ${QR_PNG_SIZE_MAX}.` }]),
    );
  }
  return remembered(`png ${size} ${url}`, () =>
    encoded(url, async () => {
      const modules = QRCode.create(url, OPTIONS).modules.size + 2 * OPTIONS.margin;
      return QRCode.toBuffer(url, { ...OPTIONS, type: 'png', scale: Math.floor(size / modules) });
    }),
  );
}

/** How many codes are kept: a code is the same for the same link, and a 1,024 px PNG costs tens of milliseconds to draw. */
const REMEMBERED_MAX = 256;
const codes = new Map<string, Promise<unknown>>();

/** The code made for `key` before (the most recently used are kept), or made now; a failure is not kept. */
function remembered<T>(key: string, make: () => Promise<T>): Promise<T> {
  const known = codes.get(key);
  if (known) {
    codes.delete(key);
    codes.set(key, known);
    return known as Promise<T>;
  }
  const made = make();
  codes.set(key, made);
  made.catch(() => codes.delete(key));
  if (codes.size > REMEMBERED_MAX) codes.delete(codes.keys().next().value!);
  return made;
}
