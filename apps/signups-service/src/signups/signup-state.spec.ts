import { appliesFrom, conflictDetail, outcomeOf } from './signup-state.js';

describe('signup state table', () => {
  it('publishes a draft, treats publishing a published signup as a no-op and refuses a closed one', () => {
    expect(outcomeOf('publish', 'draft')).toBe('apply');
    expect(outcomeOf('publish', 'published')).toBe('noop');
    expect(outcomeOf('publish', 'closed')).toBe('conflict');
  });

  it('closes a published signup, treats closing a closed one as a no-op and refuses a draft', () => {
    expect(outcomeOf('close', 'published')).toBe('apply');
    expect(outcomeOf('close', 'closed')).toBe('noop');
    expect(outcomeOf('close', 'draft')).toBe('conflict');
  });

  it('edits drafts and published signups but not closed ones', () => {
    expect(appliesFrom('update')).toEqual(['draft', 'published']);
    expect(outcomeOf('update', 'closed')).toBe('conflict');
  });

  it('deletes a signup in any status', () => {
    expect(appliesFrom('delete')).toEqual(['draft', 'published', 'closed']);
  });

  it('guards each conditional write with exactly the statuses it applies from', () => {
    expect(appliesFrom('publish')).toEqual(['draft']);
    expect(appliesFrom('close')).toEqual(['published']);
  });

  it('explains a conflict in words', () => {
    expect(conflictDetail('publish', 'closed')).toBe('A closed signup cannot be published.');
    expect(conflictDetail('close', 'draft')).toBe('A draft signup cannot be closed.');
    expect(conflictDetail('update', 'closed')).toBe('A closed signup cannot be edited.');
  });
});
