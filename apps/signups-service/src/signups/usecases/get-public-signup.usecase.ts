import { Injectable } from '@nestjs/common';
import { isUuid } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { isPublic, type PublicSignup } from '../signup.js';
import { SignupsRepository } from '../signups.repository.js';
import type { Contents } from '../slot-item.js';
import { SlotsItemsRepository } from '../slots-items.repository.js';

/** What a slug can look like (lowercase words, hyphens, the random suffix); anything else names no signup. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

/**
 * A published or closed signup by id or slug, for anyone, with its slots and items. Drafts are
 * not found, like signups that do not exist. Both modes: a sandbox signup has a public page too.
 */
@Injectable()
export class GetPublicSignupUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
  ) {}

  async execute(slugOrId: string): Promise<{ signup: PublicSignup; contents: Contents }> {
    const signup = isUuid(slugOrId)
      ? await this.signups.findById(slugOrId.toLowerCase())
      : typeof slugOrId === 'string' && SLUG.test(slugOrId)
        ? await this.signups.findBySlug(slugOrId)
        : undefined;
    if (!signup || !isPublic(signup)) throw new ProblemError('not_found', 'No published signup with this id or slug.');
    return { signup, contents: await this.contents.contentsOf(signup.id) };
  }
}
