/**
 * What a throughput goal leaves the server to spend on one request. The server and the load
 * process share the machine's cores, so at a goal's rate every request may cost at most
 * cores / rate of CPU in all; the load process's part of that is taken out as it was measured in
 * the same scenario (its CPU per request changes little with the rate). What is left is the
 * server CPU per request that would let the goal's rate fit on these cores: beside the CPU the
 * server did spend, it says how far a missed throughput goal is, in the unit a change to the code
 * moves.
 */
export interface ScenarioCpu {
  requestsPerSecond: number;
  /** The load process's CPU over the scenario, in % of one core. */
  loadCpuPercent: number;
  /** The server's CPU per request, all its processes, in µs. */
  serverCpuMicros?: number;
}

export interface CpuBudget {
  /** Server CPU per request, in µs, that the goal's rate would leave; 0 when the load process alone would need all of it. */
  allowedMicros: number;
  /** Server CPU per request measured, in µs. */
  spentMicros: number;
}

/** The server CPU a request may take to reach goalRate on this many cores, beside what it took; undefined when the server's CPU was not measured. */
export function serverCpuBudget(scenario: ScenarioCpu, goalRate: number, cores: number): CpuBudget | undefined {
  if (scenario.serverCpuMicros === undefined || scenario.requestsPerSecond <= 0 || goalRate <= 0) return undefined;
  const loadMicros = ((scenario.loadCpuPercent / 100) * 1e6) / scenario.requestsPerSecond;
  const allMicros = (cores * 1e6) / goalRate;
  return { allowedMicros: Math.max(0, allMicros - loadMicros), spentMicros: scenario.serverCpuMicros };
}
