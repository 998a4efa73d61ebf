import { runStandalone } from '#libs/runtime';
import { remindersServiceApp } from './index.js';

await runStandalone(remindersServiceApp);
