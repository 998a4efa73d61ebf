import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { checkReadiness, type HealthIndicator, type Metrics } from '#libs/observability';
import { Auth, Unmetered } from '#libs/scopes';
import { HEALTH_INDICATORS, METRICS } from './tokens.js';

/**
 * Whether the app has begun shutting down. From then on /readyz answers 503 (so load balancers and
 * Kubernetes endpoints stop sending it work) and HTTP responses close their connection, while
 * everything else is still served.
 */
export class ShutdownState {
  private began = false;

  get shuttingDown(): boolean {
    return this.began;
  }

  begin(): void {
    this.began = true;
  }
}

interface StatusReply {
  status(code: number): StatusReply;
  header(name: string, value: string): StatusReply;
  send(body: unknown): unknown;
}

/** Liveness, readiness (each dependency) and Prometheus metrics: served by every app. */
@ApiExcludeController()
@Unmetered()
@Controller()
export class OpsController {
  constructor(
    @Inject(HEALTH_INDICATORS) private readonly indicators: HealthIndicator[],
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(ShutdownState) private readonly shutdown: ShutdownState,
  ) {}

  @Get('healthz')
  @Auth.public()
  @Header('cache-control', 'no-store')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Auth.public()
  async readyz(@Res() reply: StatusReply): Promise<void> {
    const report = await checkReadiness(this.indicators, { shuttingDown: this.shutdown.shuttingDown });
    reply
      .status(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  }

  @Get('metrics')
  @Auth.public()
  async metricsText(@Res() reply: StatusReply): Promise<void> {
    reply.header('content-type', this.metrics.contentType).send(await this.metrics.render());
  }
}
