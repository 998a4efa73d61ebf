export { generateSigningSecret, signatureHeader, webhookHeaders, type WebhookHeaders } from './signing-secret.js';
