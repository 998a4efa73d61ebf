import { describeAppOperations } from '#libs/testing';
import { webhooksDispatcherApp } from './index.js';

describeAppOperations(webhooksDispatcherApp);
