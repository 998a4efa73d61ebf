/** Injection tokens of the runtime's adapters. */
export const APP_CONTEXT = Symbol('APP_CONTEXT');
/** The app's own settings, as read at boot (AppContext.config). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const BUS = Symbol('BUS');
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const LOGGER = Symbol('LOGGER');
export const METRICS = Symbol('METRICS');
export const HEALTH_INDICATORS = Symbol('HEALTH_INDICATORS');
