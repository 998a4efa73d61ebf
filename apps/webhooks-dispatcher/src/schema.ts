export const WEBHOOKS_SCHEMA = 'webhooks';
