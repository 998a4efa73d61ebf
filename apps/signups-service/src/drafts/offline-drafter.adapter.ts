import type { SignupDraft } from '#libs/contracts';
import type { Drafter } from './drafter.js';
import { draftFromDescription } from './offline/index.js';

/** The built-in parser behind the Drafter port: deterministic, no provider, times read as UTC. */
export class OfflineDrafter implements Drafter {
  draft(description: string, referenceDate: Date): Promise<SignupDraft> {
    return Promise.resolve(draftFromDescription(description, { referenceDate }));
  }
}
