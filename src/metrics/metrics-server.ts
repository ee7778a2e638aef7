import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prometheusContentType } from 'prom-client';
import { listenOn } from '../http/listen.ts';
import type { Logger } from '../logger.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics in the Prometheus text format on a port of its own (ARCHIVE_METRICS_PORT), so
 * the public port never shows it; anything else there answers 404.
 */
export async function startMetricsServer(address: { host: string; port: number }, gather: () => Promise<string>, logger: Logger): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only /metrics is served here.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('GET /metrics\n');
      return;
    }
    gather().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': prometheusContentType, 'Cache-Control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.warn('gathering metrics failed', { error });
        response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' }).end('The metrics could not be gathered; try again.\n');
      },
    );
  });
  await listenOn(server, { ...address, hostVariable: 'ARCHIVE_METRICS_HOST', portVariable: 'ARCHIVE_METRICS_PORT' });
  const port = (server.address() as AddressInfo).port;
  logger.info('metrics listening', { host: address.host, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
