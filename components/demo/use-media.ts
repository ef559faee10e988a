// Browser facts the chat client adapts to, read without a hydration mismatch (the server assumes a phone off a Mac).
import { useSyncExternalStore } from "react";

const wideQuery = "(min-width: 768px)";

function subscribeWide(onChange: () => void) {
  const media = window.matchMedia(wideQuery);
  media.addEventListener("change", onChange);
  return () => media.removeEventListener("change", onChange);
}

/** True from the md breakpoint up, where the sidebar sits beside the messages instead of over them. */
export function useIsWide(): boolean {
  return useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(wideQuery).matches,
    () => false,
  );
}

const noSubscription = () => () => {};

/** The modifier a visitor presses for shortcuts: ⌘ on Apple devices, Ctrl elsewhere. */
export function useModifierLabel(): string {
  return useSyncExternalStore(
    noSubscription,
    () => (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent) ? "⌘" : "Ctrl"),
    () => "Ctrl",
  );
}
