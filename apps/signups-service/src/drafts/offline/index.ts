/** Offline, deterministic drafting of signup sheets from free text. */
export { draftFromDescription, type DraftOptions } from './offline-drafter.js';
