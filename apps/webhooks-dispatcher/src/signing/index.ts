export { generateSigningSecret, signatureHeader, webhookHeaders, type WebhookHeaders } from './signing-secret.js';
export { SecretBox } from './secret-box.js';
