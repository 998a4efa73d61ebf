import { ProblemError } from '#libs/problem';
import { etagOf, etagOfJson, ifMatchHolds, MAX_CONDITION_LENGTH, noneMatchHolds, parseEntityTags, requireIfMatch } from './entity-tags.js';

function problemOf(run: () => unknown): ProblemError {
  try {
    run();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem');
}

describe('etagOf', () => {
  it('is the quoted strong tag of the JSON text sent for the view, undefined members left out as JSON leaves them', () => {
    const tag = etagOf({ a: 1, b: [1, 'x'], c: undefined });
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(etagOfJson('{"a":1,"b":[1,"x"]}')).toBe(tag);
  });

  it('tags a Date as its JSON form, so a view and its JSON copy agree', () => {
    const view = { at: new Date('2026-01-02T03:04:05.000Z'), n: null };
    expect(etagOf(view)).toBe(etagOf(JSON.parse(JSON.stringify(view))));
  });

  it('changes with any value, an array order or a cursor', () => {
    expect(etagOf({ data: [1, 2], nextCursor: 'a' })).not.toBe(etagOf({ data: [2, 1], nextCursor: 'a' }));
    expect(etagOf({ data: [1, 2], nextCursor: 'a' })).not.toBe(etagOf({ data: [1, 2], nextCursor: 'b' }));
    expect(etagOf({ title: 'a' })).not.toBe(etagOf({ title: 'b' }));
  });
});

describe('parseEntityTags', () => {
  it('is undefined when the header is absent', () => {
    expect(parseEntityTags(undefined, 'If-Match')).toBeUndefined();
  });

  it('reads * as any representation', () => {
    expect(parseEntityTags(' * ', 'If-Match')).toEqual({ any: true });
  });

  it('reads a list of strong and weak tags with whitespace and empty elements', () => {
    expect(parseEntityTags(' "a" ,\tW/"b",, "" ', 'If-None-Match')).toEqual({
      any: false,
      tags: [
        { weak: false, opaque: '"a"' },
        { weak: true, opaque: '"b"' },
        { weak: false, opaque: '""' },
      ],
    });
  });

  it('joins a header sent twice into one list', () => {
    expect(parseEntityTags(['"a"', '"b"'], 'If-Match')).toEqual({
      any: false,
      tags: [
        { weak: false, opaque: '"a"' },
        { weak: false, opaque: '"b"' },
      ],
    });
  });

  it.each([
    ['an empty value', ''],
    ['only commas', ' , ,'],
    ['a bare token', 'abc'],
    ['an unclosed quote', '"abc'],
    ['a quote inside a tag', '"a"b"'],
    ['a lower-case weak prefix', 'w/"a"'],
    ['* inside a list', '"a", *'],
    ['a space inside a tag', '"a b"'],
    ['a control character', '"a\u0001"'],
    ['a character past U+00FF', '"é\u0100"'],
    ['a lone surrogate', '"\ud800"'],
    ['two tags without a comma', '"a" "b"'],
  ])('refuses %s with validation_failed on the header', (_name, value) => {
    const problem = problemOf(() => parseEntityTags(value, 'If-None-Match'));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.[0]?.path).toBe('If-None-Match');
  });

  it(`refuses a header longer than ${MAX_CONDITION_LENGTH} characters`, () => {
    const value = Array.from({ length: 300 }, (_, i) => `"${i}abcdef"`).join(',');
    expect(problemOf(() => parseEntityTags(value, 'If-Match')).errors?.[0]).toMatchObject({ path: 'If-Match' });
  });

  it('accepts obs-text (U+0080 to U+00FF) inside a tag, as RFC 9110 allows', () => {
    expect(parseEntityTags('"\u00e9"', 'If-Match')).toEqual({ any: false, tags: [{ weak: false, opaque: '"\u00e9"' }] });
  });
});

describe('comparison', () => {
  const current = '"abc"';

  it('If-None-Match compares weakly: W/ does not matter', () => {
    expect(noneMatchHolds(parseEntityTags('W/"abc"', 'If-None-Match')!, current)).toBe(true);
    expect(noneMatchHolds(parseEntityTags('"x", "abc"', 'If-None-Match')!, current)).toBe(true);
    expect(noneMatchHolds(parseEntityTags('*', 'If-None-Match')!, current)).toBe(true);
    expect(noneMatchHolds(parseEntityTags('"x"', 'If-None-Match')!, current)).toBe(false);
  });

  it('If-Match compares strongly: a weak tag never matches', () => {
    expect(ifMatchHolds(parseEntityTags('"abc"', 'If-Match')!, current)).toBe(true);
    expect(ifMatchHolds(parseEntityTags('"x", "abc"', 'If-Match')!, current)).toBe(true);
    expect(ifMatchHolds(parseEntityTags('*', 'If-Match')!, current)).toBe(true);
    expect(ifMatchHolds(parseEntityTags('W/"abc"', 'If-Match')!, current)).toBe(false);
    expect(ifMatchHolds(parseEntityTags('"abd"', 'If-Match')!, current)).toBe(false);
  });
});

describe('requireIfMatch', () => {
  const view = { id: '1', title: 'a' };

  it('lets a request without If-Match, with *, or with the current tag through', () => {
    expect(() => requireIfMatch(undefined, view)).not.toThrow();
    expect(() => requireIfMatch('*', view)).not.toThrow();
    expect(() => requireIfMatch(`"stale", ${etagOf(view)}`, view)).not.toThrow();
  });

  it('refuses a stale tag with 412 precondition_failed', () => {
    const problem = problemOf(() => requireIfMatch(etagOf({ ...view, title: 'b' }), view));
    expect(problem.code).toBe('precondition_failed');
    expect(problem.status).toBe(412);
  });
});
