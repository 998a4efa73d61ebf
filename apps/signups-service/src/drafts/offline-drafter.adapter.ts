import type { SignupDraft } from '#libs/contracts';
import type { DraftContext, Drafter } from './drafter.js';
import { draftFromDescription } from './offline/index.js';

/** The built-in parser behind the Drafter port: deterministic, no provider, times read in the context's zone. */
export class OfflineDrafter implements Drafter {
  draft(description: string, context: DraftContext): Promise<SignupDraft> {
    return Promise.resolve(draftFromDescription(description, context));
  }
}
