// Fastify's request log lines, with the probes' at debug: load balancers and Prometheus call
// /healthz, /readyz and /metrics every few seconds, and at info those lines would bury the rest.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

const isProbe = (request: FastifyRequest) => PROBES.has(request.routeOptions.url ?? '');

export class ProbesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!isProbe(request)) return super.incomingRequest(request, reply, metadata);
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    // A probe that fails with an error is still logged as one.
    if (error || !isProbe(request)) return super.requestCompleted(error, request, reply, metadata);
    if (!this.isLogDisabled(request))
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
