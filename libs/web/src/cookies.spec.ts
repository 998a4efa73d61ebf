import { parseCookies } from './cookies.js';

describe('cookie header', () => {
  it('reads each cookie by name, the first of a repeated name', () => {
    const cookies = parseCookies('a=1; account_session=usr_x.1.y; a=2; broken; =x');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('account_session')).toBe('usr_x.1.y');
    expect(cookies.size).toBe(2);
  });
});
