// Bounded polling for integration assertions: retries until the check passes or time runs out.
import { setTimeout as sleep } from 'node:timers/promises';

export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 30_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
    await sleep(intervalMs);
  }
}
