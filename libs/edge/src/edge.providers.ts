import { Inject, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Bus } from '#libs/bus';
import type { Metrics } from '#libs/observability';
import { CredentialGuard } from './credential.guard.js';
import { CredentialVerifier } from './credential-verifier.js';
import { type CounterLogger, Counters } from './limits/counters.js';
import { type EdgeLimits, EdgeRateLimiter } from './limits/edge-rate-limiter.js';
import { RateLimitGuard } from './limits/rate-limit.guard.js';
import type { TokenAudience } from './oauth-token-verifier.js';

/** Starts and stops the verifier's eviction subscription with the app, and closes the rate limit counters. */
class EdgeLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(CredentialVerifier) private readonly verifier: CredentialVerifier,
    @Inject(Counters) private readonly counters: Counters,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.verifier.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.verifier.stop();
    await this.counters.close();
  }
}

export interface EdgeOptions {
  bus: Bus;
  /** The surface's tokens: from the auth-server's issuer, for this edge's resource (RFC 8707). */
  tokens: TokenAudience;
  limits: EdgeLimits & { rateLimitPrefix: string };
  /** Where every replica of every edge counts; in memory without it. */
  redisUrl?: string;
  logger?: CounterLogger;
  /** Counts the calls refused by a rate limit. */
  metrics?: Pick<Metrics, 'counter'>;
}

/**
 * What makes an app an edge (api-gateway, mcp-server): the credential verifier for its audience,
 * the rate limiter on the shared counters, and the global guards that run them in order
 * (authenticate, then count against the caller's budget).
 */
export function edgeProviders(options: EdgeOptions): Provider[] {
  return [
    { provide: CredentialVerifier, useFactory: () => new CredentialVerifier(options.bus, options.tokens) },
    { provide: Counters, useFactory: () => Counters.create(options.redisUrl, options.limits.rateLimitPrefix, options.logger) },
    {
      provide: EdgeRateLimiter,
      useFactory: (counters: Counters) => new EdgeRateLimiter(counters, options.limits, options.metrics),
      inject: [Counters],
    },
    EdgeLifecycle,
    { provide: APP_GUARD, useClass: CredentialGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ];
}
