import { describeAppOperations } from '#libs/testing';
import { signupsServiceApp } from './index.js';
import { SIGNUPS_ENV } from './testing/fixtures.js';

describeAppOperations(signupsServiceApp, SIGNUPS_ENV);
