export { deriveKey, SecretBox } from './secret-box.js';
