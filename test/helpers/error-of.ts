/** The error an attempt throws (the real one, to inspect or classify); fails when it throws none. */
export async function errorOf(attempt: () => Promise<unknown>): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
