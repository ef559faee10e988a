// Request bodies for route handlers: content type, size cap, JSON, schema.
import type { z } from "zod";
import { ApiError, validationError } from "@/lib/errors";

export const MAX_JSON_BYTES = 16 * 1024;

/** Refuses anything but a JSON body with 415. */
export function requireJsonContentType(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ApiError(415, "Content-Type must be application/json.");
}

/** Reads the raw body, refusing with 413 past `maxBytes` whether or not Content-Length says so. */
export async function readBody(request: Request, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new ApiError(413, `Request body must be at most ${maxBytes / 1024} KB.`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();

  // The header can lie or be absent (chunked); count the bytes as they arrive.
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body no larger than `maxBytes`, then validates it with `schema`. */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes = MAX_JSON_BYTES,
): Promise<z.infer<T>> {
  requireJsonContentType(request);
  const body = await readBody(request, maxBytes);
  let data: unknown;
  try {
    data = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ApiError(400, "Request body is not valid JSON.", { code: "invalid_json" });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
