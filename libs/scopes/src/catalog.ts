/** The eight scopes with the descriptions shown on the consent screen, in metadata and in MCP. */
export const SCOPES = {
  'signups:read': 'See your signup sheets, their slots and items',
  'signups:write': 'Create, edit, publish, close and delete your signup sheets',
  'participants:read': 'See who signed up, with their contact details',
  'participants:write': 'Add, edit and remove participants of your signup sheets',
  'register:write': 'Sign up for signup sheets on your behalf',
  'analytics:read': 'See fill rates and other statistics of your signup sheets',
  'ai:draft': 'Draft signup sheets from a description with AI (uses your monthly quota)',
  'reminders:send': 'Send SMS and email reminders to participants (uses your daily SMS and email allowances)',
} as const;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && Object.hasOwn(SCOPES, value);
}

/** Space- (or plus-) separated scope string to a list; unknown names are returned separately. */
export function parseScopeString(value: string): { scopes: Scope[]; unknown: string[] } {
  const names = [...new Set(value.split(/[\s+]+/).filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}
