export { ALL_SCOPES, SCOPES, isScope, parseScopeString, type Scope } from './catalog.js';
export {
  AUTH_REQUIREMENT,
  Auth,
  Unmetered,
  authRequirementOf,
  isUnmetered,
  type AuthRequirement,
  type FirstPartyAccess,
} from './auth.decorator.js';
export { ScopeGuard, assertAllowed, type ScopedCaller } from './scope.guard.js';
export { undeclaredRoutes, walkRoutes, type DeclaredRoute } from './route-walk.js';
export { DeclarationGuard } from './declaration.guard.js';
