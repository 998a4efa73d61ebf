import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildOpenApiDocumentOffline } from '#apps/api-gateway';
import { CLIENT_TYPES_FILE, clientTypesSource } from '#libs/testing';

/** Writes the client's types from the gateway's OpenAPI document (`npm run client:generate`). */
const root = process.cwd();
const file = join(root, CLIENT_TYPES_FILE);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, await clientTypesSource(await buildOpenApiDocumentOffline(), root));
console.log(`Wrote ${CLIENT_TYPES_FILE}`);
