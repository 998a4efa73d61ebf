import type { SignupDraft } from '#libs/contracts';

/** What a description is read against: the instant "next Saturday" counts from, and the zone its times of day are in. */
export interface DraftContext {
  referenceDate: Date;
  /** An IANA zone: the organization's. */
  timeZone: string;
}

/** Turns a free-text description into a draft; a provider failure is a ProblemError upstream_unavailable (502, or 504 on timeout). */
export interface Drafter {
  draft(description: string, context: DraftContext): Promise<SignupDraft>;
}

/** The configured drafter (AI_PROVIDER). */
export const DRAFTER = Symbol('DRAFTER');
/** The built-in parser, which sandbox calls always use. */
export const OFFLINE_DRAFTER = Symbol('OFFLINE_DRAFTER');
