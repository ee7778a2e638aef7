/**
 * One metric as a worker's registry lists it (prom-client's `Registry.getMetricsAsJSON()`), the
 * way it crosses the cluster's IPC channel. `type` and `aggregator` are prom-client's names
 * (`counter`, `histogram`, …; `sum`, `first`, …).
 */
export interface GatheredMetric {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: GatheredValue[];
}

/** One series of a metric; `metricName` tells a histogram's or summary's `_bucket`, `_sum` and `_count` apart. */
export interface GatheredValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** The series that only grow while a process lives, and that a cluster-wide sum may keep after it dies. */
function isCumulative(metric: GatheredMetric, value: GatheredValue): boolean {
  if (metric.aggregator !== 'sum') return false;
  if (metric.type === 'counter' || metric.type === 'histogram') return true;
  return metric.type === 'summary' && /_(sum|count)$/.test(value.metricName ?? '');
}

function seriesKey(value: GatheredValue): string {
  const labels = Object.entries(value.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([value.metricName ?? '', labels]);
}

/**
 * What the workers that have exited had counted when they were last gathered: their counters and
 * their histograms' and summaries' buckets, sums and counts, added up. Added to the live workers'
 * metrics, it keeps those sums from going down when a worker dies. Gauges are left out, so a dead
 * worker's gauges leave the sum with it.
 */
export class RetiredTotals {
  private readonly byName = new Map<string, { metric: GatheredMetric; series: Map<string, GatheredValue> }>();

  /** Adds the last metrics gathered from a worker that has exited. */
  add(metrics: readonly GatheredMetric[]): void {
    for (const metric of metrics) {
      for (const value of metric.values) {
        if (!isCumulative(metric, value)) continue;
        let entry = this.byName.get(metric.name);
        if (!entry) {
          entry = { metric: { ...metric, values: [] }, series: new Map() };
          this.byName.set(metric.name, entry);
        }
        const key = seriesKey(value);
        const total = entry.series.get(key);
        entry.series.set(key, { ...value, value: (total?.value ?? 0) + value.value });
      }
    }
  }

  /** The totals as one more worker's metrics, for prom-client's aggregation. */
  metrics(): GatheredMetric[] {
    return [...this.byName.values()].map(({ metric, series }) => ({ ...metric, values: [...series.values()] }));
  }
}
