"use client";
import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

// sonner (~13 kB gzip, and a stylesheet it injects when it loads, which restyles the whole page) is not
// needed to paint or hydrate: the toaster loads once the browser is idle after hydration (a plain dynamic
// import; next/dynamic would add ~5 kB of its own). Toasts raised before it mounts are not lost — sonner
// replays the active toasts to a toaster that subscribes late — and pages that raise toasts import sonner
// themselves, so there it is already loaded.
function Toaster(props: ToasterProps) {
  const [Sonner, setSonner] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => void import("sonner").then((m) => live && setSonner(() => m.Toaster));
    const idle = typeof window.requestIdleCallback === "function";
    const handle = idle ? window.requestIdleCallback(load, { timeout: 2000 }) : window.setTimeout(load, 200);
    return () => {
      live = false;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, []);
  if (!Sonner) return null;
  return <Sonner theme="light" position="top-center" richColors closeButton className="toaster group" {...props} />;
}

export { Toaster };
