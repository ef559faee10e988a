// Runs async steps one after another in call order, whatever their callers do meanwhile. The facilitator
// broadcasts through it: picking a nonce, signing and sending must not interleave between two settlements,
// while everything before (verification) and after (waiting for receipts) still runs side by side.
export function serialQueue(): <T>(step: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const run = tail.then(step, step);
    // The next step waits for this one to end, failed or not; its failure belongs to its own caller.
    tail = run.catch(() => undefined);
    return run;
  };
}
