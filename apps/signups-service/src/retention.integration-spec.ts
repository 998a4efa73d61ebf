import { describeRetention, outboxRetentionCases } from '#libs/testing';
import { signupsServiceApp } from './index.js';

describeRetention(signupsServiceApp, outboxRetentionCases('signups'));
