import { runStandalone } from '#libs/runtime';
import { authServerApp } from './index.js';

await runStandalone(authServerApp);
