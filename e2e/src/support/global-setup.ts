import { type FakeCollector, RELAXED_LIMITS_ENV, type ServicesStack, startFakeCollector, startServicesStack } from '#libs/testing';
import type { StackInfo } from './stack-env.js';

export interface RunningStack {
  stack: ServicesStack;
  collector: FakeCollector;
}

declare global {
  var e2eStack: RunningStack | undefined;
}

/**
 * Starts the whole platform in services mode (one process per app) for the e2e files, exporting
 * its traces to a collector of its own, with limits no test reaches (limits.e2e-spec.ts runs
 * gateways of its own at the default limits).
 * Jest loads this file through require() without its module mapper: only package imports
 * (`#libs/*` resolve to the built libs) and type-only relative imports work here.
 */
export default async function globalSetup(): Promise<void> {
  const collector = await startFakeCollector();
  let stack: ServicesStack;
  try {
    stack = await startServicesStack({
      label: 'e2e',
      env: {
        ...RELAXED_LIMITS_ENV,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        REMINDER_POLL_MS: '250',
        OFFER_SWEEP_MS: '250',
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
  } catch (err) {
    await collector.close();
    throw err;
  }
  const info: StackInfo = { ...stack.info, collectorUrl: collector.url };
  process.env.E2E_STACK = JSON.stringify(info);
  globalThis.e2eStack = { stack, collector };
}
