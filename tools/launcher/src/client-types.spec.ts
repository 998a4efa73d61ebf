import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocumentOffline } from '#apps/api-gateway';
import { CLIENT_TYPES_FILE, clientTypesSource } from '#libs/testing';

const ROOT = join(import.meta.dirname, '../../..');

describe("the client's generated types", () => {
  it('are what the current OpenAPI document generates (else run npm run client:generate)', async () => {
    const generated = await clientTypesSource(await buildOpenApiDocumentOffline(), ROOT);
    expect(readFileSync(join(ROOT, CLIENT_TYPES_FILE), 'utf8')).toBe(generated);
  });
});
