import type { Organization } from './organization.js';
import type { OrganizationsRepository } from './organizations.repository.js';
import { OrganizationsService } from './organizations.service.js';

/** An organizations repository whose first `taken` slugs are taken; it records every slug tried. */
function slugsTaken(taken: number): { repository: OrganizationsRepository; tried: string[] } {
  const tried: string[] = [];
  const insert = async (org: Organization) => {
    tried.push(org.slug);
    return tried.length > taken ? org : undefined;
  };
  return { repository: { insert } as unknown as OrganizationsRepository, tried };
}

const serviceWith = (repository: OrganizationsRepository) => new OrganizationsService(undefined as never, repository, undefined as never);

describe('creating an organization', () => {
  it('tries a fresh slug when the one drawn is taken', async () => {
    const { repository, tried } = slugsTaken(2);
    const org = await serviceWith(repository).create({ name: 'Acme Choir' });
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(3);
    expect(org.slug).toBe(tried[2]);
  });

  it("gives up after five taken slugs with an error that is not the caller's", async () => {
    const { repository, tried } = slugsTaken(5);
    await expect(serviceWith(repository).create({ name: 'Acme Choir' })).rejects.toThrow(
      'No free slug for organization "Acme Choir" after 5 attempts.',
    );
    expect(tried).toHaveLength(5);
  });
});
