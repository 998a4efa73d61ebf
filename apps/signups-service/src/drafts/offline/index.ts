/** Offline, deterministic drafting of signup sheets from free text. */
export { draftFromDescription, type DraftItem, type DraftOptions, type DraftSlot, type SignupDraft } from './offline-drafter.js';
