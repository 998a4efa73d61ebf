import { describeAppOperations } from '#libs/testing';
import { mcpServerApp } from './index.js';

describeAppOperations(mcpServerApp);
