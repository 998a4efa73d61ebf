import { runStandalone } from '#libs/runtime';
import { signupsServiceApp } from './index.js';

await runStandalone(signupsServiceApp);
