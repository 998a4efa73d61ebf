import { csvCell, csvRecord, exportFileName } from './participants-export.js';

describe('participants export text', () => {
  it('quotes cells holding a comma, a quote or a line break, doubling the quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\ronly')).toBe('"cr\ronly"');
  });

  it('gives a leading apostrophe to cells that start like a formula, then quotes them as needed', () => {
    expect(['=1+1', '+1', '-1', '@SUM(1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(1)", "'\tx", `"'\rx"`]);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('a=1')).toBe('a=1');
  });

  it('ends a record with CRLF', () => {
    expect(csvRecord(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });

  it('names the file after the slug, with anything but letters, digits, dots, dashes and underscores replaced', () => {
    expect(exportFileName('street-party-x7k2', 'csv')).toBe('street-party-x7k2-participants.csv');
    expect(exportFileName('a"b/c\\d', 'ndjson')).toBe('a-b-c-d-participants.ndjson');
  });
});
