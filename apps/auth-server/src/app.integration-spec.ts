import { describeAppOperations } from '#libs/testing';
import { authServerApp } from './index.js';

describeAppOperations(authServerApp, { ADMIN_TOKEN: 'adm_operations-test-token' });
