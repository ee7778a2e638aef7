import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';

/**
 * In an HTTP worker: answers the primary's requests for this worker's metrics over the cluster's
 * IPC channel (prom-client's cluster support listens once an AggregatorRegistry exists).
 */
export function shareWorkerMetrics(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
}

/**
 * In the cluster primary: every worker's metrics, aggregated by prom-client (counters and
 * histograms summed, RSS summed, …), followed by the primary's own registry (the publisher and
 * the primary process). The two never hold a metric of the same name.
 */
export function clusterMetricsGatherer(primary: Registry): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  return async () => {
    const [workers, own] = await Promise.all([aggregator.clusterMetrics(), primary.metrics()]);
    return `${workers.trimEnd()}\n\n${own}`;
  };
}
