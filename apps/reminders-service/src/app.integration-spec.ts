import { describeAppOperations } from '#libs/testing';
import { remindersServiceApp } from './index.js';

describeAppOperations(remindersServiceApp);
