import { ProblemError } from '#libs/problem';
import { checkAdminAuthorization } from './admin-token.js';

const TOKEN = 'admin-secret-token';

function refusal(header: string | undefined): ProblemError | undefined {
  try {
    checkAdminAuthorization(header, TOKEN);
    return undefined;
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
}

describe('admin token check', () => {
  it('accepts the admin token as a bearer credential, whatever the scheme case', () => {
    expect(refusal(`Bearer ${TOKEN}`)).toBeUndefined();
    expect(refusal(`bearer ${TOKEN}`)).toBeUndefined();
  });

  it('answers missing_credentials without a header', () => {
    expect(refusal(undefined)?.code).toBe('missing_credentials');
    expect(refusal('  ')?.code).toBe('missing_credentials');
  });

  it('answers malformed_credentials for another scheme, a bare token or a doubled space', () => {
    expect(refusal(`Basic ${TOKEN}`)?.code).toBe('malformed_credentials');
    expect(refusal(TOKEN)?.code).toBe('malformed_credentials');
    expect(refusal(`Bearer  ${TOKEN}`)?.code).toBe('malformed_credentials');
  });

  it('answers invalid_credentials for another token, including a prefix of the right one', () => {
    expect(refusal('Bearer nope')?.code).toBe('invalid_credentials');
    expect(refusal(`Bearer ${TOKEN.slice(0, -1)}`)?.code).toBe('invalid_credentials');
  });

  it('sends a Bearer challenge with a refusal', () => {
    expect(refusal('Bearer nope')?.headers['www-authenticate']).toBe('Bearer realm="auth-server admin"');
  });
});
