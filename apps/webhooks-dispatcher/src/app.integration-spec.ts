import { randomBytes } from 'node:crypto';
import { describeAppOperations } from '#libs/testing';
import { webhooksDispatcherApp } from './index.js';

describeAppOperations(webhooksDispatcherApp, { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') });
