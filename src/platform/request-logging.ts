// Fastify's request log lines, with the probes' at debug: load balancers and Prometheus call
// /healthz, /readyz and /metrics every few seconds, and at info those lines would bury the rest. A
// dashboard sign-in link's token is left out of its line.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

const isProbe = (request: FastifyRequest) => PROBES.has(request.routeOptions.url ?? '');

// A dashboard sign-in link's path is its token, which signs its holder in: the line names the page only.
const SIGN_IN_LINK = /^\/sign-in\/[^/?#]+/;

export class ProbesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (SIGN_IN_LINK.test(request.url)) {
      if (!this.isLogDisabled(request))
        request.log.info({ req: { method: request.method, url: '/sign-in/[redacted]' } }, 'incoming request');
      return;
    }
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
