import { describeRetention, outboxRetentionCases } from '#libs/testing';
import { signupsServiceApp } from './index.js';
import { SIGNUPS_ENV } from './testing/fixtures.js';

describeRetention(signupsServiceApp, outboxRetentionCases('signups'), SIGNUPS_ENV);
