import { expect } from 'chai';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { PrometheusFamily } from 'parse-prometheus-text-format';
import type { Registry } from 'prom-client';

/** The metrics of a registry as a Prometheus text parser reads them. */
export async function scrape(registry: Registry): Promise<PrometheusFamily[]> {
  return parsePrometheusTextFormat(await registry.metrics());
}

/** The metrics a /metrics endpoint serves, read by a Prometheus text parser; fails on anything but 200. */
export async function scrapeUrl(url: string): Promise<PrometheusFamily[]> {
  const response = await fetch(url);
  expect(response.status, url).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await response.text());
}

/** The value of a counter or gauge sample with exactly these labels (0 when absent). */
export function sample(families: PrometheusFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((entry) => entry.name === name);
  const found = family?.metrics.find((metric) => JSON.stringify(Object.entries(metric.labels ?? {}).sort()) === JSON.stringify(Object.entries(labels).sort()));
  return Number(found?.value ?? 0);
}

/**
 * The observation count of a histogram without labels. (The text parser folds the samples of a
 * labelled histogram together, so labelled ones are read from prom-client itself.)
 */
export function observations(families: PrometheusFamily[], name: string): number {
  const family = families.find((entry) => entry.name === name);
  expect(family?.type, name).to.equal('HISTOGRAM');
  const [only] = family?.metrics ?? [];
  expect(Number(only?.buckets?.['+Inf'] ?? 0), `${name}: +Inf bucket and count`).to.equal(Number(only?.count ?? 0));
  return Number(only?.count ?? 0);
}
