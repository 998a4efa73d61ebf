import { runStandalone } from '#libs/runtime';
import { apiGatewayApp } from './index.js';

await runStandalone(apiGatewayApp);
