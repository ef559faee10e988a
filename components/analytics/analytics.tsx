"use client";
import { useEffect } from "react";

const key = process.env.NEXT_PUBLIC_POSTHOG_KEY;
const host = process.env.NEXT_PUBLIC_POSTHOG_HOST || "https://us.i.posthog.com";

/** Starts PostHog only when a key is configured; without one nothing loads and nothing is sent. */
export function Analytics() {
  useEffect(() => {
    if (!key) return;
    void import("posthog-js").then(({ default: posthog }) => {
      if (posthog.__loaded) return;
      // 'history_change' captures a pageview on every client-side navigation as well as the first load.
      posthog.init(key, { api_host: host, capture_pageview: "history_change", persistence: "memory" });
    });
  }, []);
  return null;
}

/** Sends an event when analytics is configured; a no-op otherwise. */
export async function captureEvent(event: string, properties: Record<string, unknown>): Promise<void> {
  if (!key) return;
  const { default: posthog } = await import("posthog-js");
  if (posthog.__loaded) posthog.capture(event, properties);
}
