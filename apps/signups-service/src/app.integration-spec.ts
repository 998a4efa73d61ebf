import { describeAppOperations } from '#libs/testing';
import { signupsServiceApp } from './index.js';

describeAppOperations(signupsServiceApp);
