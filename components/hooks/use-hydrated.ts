// Whether the page is interactive yet. Forms and buttons that work through script stay disabled until it is (a
// press before hydration would do nothing, or submit as a plain GET). Read from an external store rather than
// set in an effect: the server render and hydration see false, the client's next render true, with no extra pass.
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** False in the server render and during hydration, true once the client is interactive. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
