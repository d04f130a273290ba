// Runs `fn` as if `ms` had passed: Date.now() moved ahead for its duration (what the
// keyword warmer reads to tell that a tenant has been quiet), restored afterwards.
export async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => realNow() + ms;
  try {
    return await fn();
  } finally {
    Date.now = realNow;
  }
}
