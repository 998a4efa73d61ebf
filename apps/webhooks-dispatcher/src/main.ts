import { runStandalone } from '#libs/runtime';
import { webhooksDispatcherApp } from './index.js';

await runStandalone(webhooksDispatcherApp);
