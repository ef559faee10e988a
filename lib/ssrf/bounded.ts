// The bounds a safe fetch keeps while it waits and reads: a body capped in bytes as it streams, and a wait that
// ends when the exchange's signal aborts.
import { SafeFetchError } from "./errors";

/** The refusal of a body over maxBytes, in the unit a person reads. */
export function tooLarge(maxBytes: number): SafeFetchError {
  const limit = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MB` : `${maxBytes} bytes`;
  return new SafeFetchError("response_too_large", `Response larger than ${limit}`);
}

/** Passes the body through until it exceeds maxBytes, then errors the stream and drops the connection. */
export function cappedBody(
  upstream: ReadableStream<Uint8Array>,
  maxBytes: number,
  hooks: { onEnd: () => void; onCancel: () => void; onFail: (error: unknown) => unknown },
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(hooks.onFail(error));
        return;
      }
      if (chunk.done) {
        controller.close();
        hooks.onEnd();
        return;
      }
      received += chunk.value.byteLength;
      if (received > maxBytes) {
        const error = tooLarge(maxBytes);
        reader.cancel(error).catch(() => {});
        controller.error(hooks.onFail(error));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      reader.cancel(reason).catch(() => {});
      hooks.onCancel();
    },
  });
}

/** Rejects as soon as the signal aborts (DNS lookups cannot be cancelled, only abandoned). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
