import { DASHBOARD_CLIENT_ID } from '#libs/contracts';
import { checkClientMetadata } from './client-policy.js';

const check = (metadata: Record<string, unknown>) => () => checkClientMetadata(undefined, 'client_name', metadata.client_name, metadata);

describe('checkClientMetadata', () => {
  const onAnHttpHost = { client_name: 'App', redirect_uris: ['http://gateway:3000/app/callback'] };

  it('refuses a registered client an http redirect URI off the loopback interface', () => {
    expect(check({ ...onAnHttpHost, client_id: 'cli_abc' })).toThrow();
  });

  it("leaves the dashboard's configured redirect URI alone, PUBLIC_BASE_URL's whatever its scheme", () => {
    expect(check({ ...onAnHttpHost, client_id: DASHBOARD_CLIENT_ID })).not.toThrow();
  });
});
