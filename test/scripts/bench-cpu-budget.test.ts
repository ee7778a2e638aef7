import assert from 'node:assert/strict';
import { serverCpuBudget } from '../../scripts/bench/cpu-budget.ts';

describe('the bench: a throughput goal as server CPU per request', () => {
  it('leaves the cores at the goal rate, less what the load process spent per request', () => {
    // 2 cores at 8,000 req/s: 250 µs a request in all; the load process spent 24 % of a core at 3,000 req/s, 80 µs a request.
    const budget = serverCpuBudget({ requestsPerSecond: 3000, loadCpuPercent: 24, serverCpuMicros: 588 }, 8000, 2);
    assert.deepEqual(budget, { allowedMicros: 170, spentMicros: 588 });
  });

  it('is zero when the load process alone would need the cores, and absent when the server was not measured', () => {
    assert.equal(serverCpuBudget({ requestsPerSecond: 1000, loadCpuPercent: 100, serverCpuMicros: 50 }, 4000, 2)?.allowedMicros, 0);
    assert.equal(serverCpuBudget({ requestsPerSecond: 1000, loadCpuPercent: 10 }, 2000, 2), undefined);
  });
});
