"use client";
import * as React from "react";
import { clsx } from "clsx";

// WAI-ARIA tabs (the shadcn API and classes, data-state included) without Radix: the controlled,
// horizontal, automatic-activation subset the marketplace uses, for ~11 kB less first-load JavaScript.

type TabsContextValue = { value: string; select: (value: string) => void; baseId: string };
const TabsContext = React.createContext<TabsContextValue | null>(null);

function useTabs(): TabsContextValue {
  const ctx = React.useContext(TabsContext);
  if (!ctx) throw new Error("Tabs parts must be rendered inside <Tabs>");
  return ctx;
}

// clsx, not cn(): no tailwind-merge in the marketplace's first load (lib/utils.ts). The root's gap is its default
// unless the caller gives one.

const idFor = (baseId: string, part: "trigger" | "content", value: string) => `${baseId}-${part}-${value}`;

type TabsProps = Omit<React.ComponentProps<"div">, "onChange"> & {
  value: string;
  onValueChange: (value: string) => void;
};

function Tabs({ className, value, onValueChange, ...props }: TabsProps) {
  const baseId = React.useId();
  // The last value asked for: a click that focuses a tab and then activates it reports one change, not two.
  const current = React.useRef(value);
  // Synced after each commit, not during render (a render React throws away must not move it).
  React.useLayoutEffect(() => {
    current.current = value;
  });
  const select = React.useCallback(
    (next: string) => {
      if (next === current.current) return;
      current.current = next;
      onValueChange(next);
    },
    [onValueChange],
  );
  return (
    <TabsContext.Provider value={{ value, select, baseId }}>
      <div
        data-slot="tabs"
        data-orientation="horizontal"
        className={clsx("flex flex-col", className?.includes("gap-") ? undefined : "gap-2", className)}
        {...props}
      />
    </TabsContext.Provider>
  );
}

function TabsList({ className, onKeyDown, ...props }: React.ComponentProps<"div">) {
  // Arrow keys, Home and End move between tabs (wrapping) and select the tab they land on.
  function onListKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    onKeyDown?.(event);
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
    const at = tabs.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const target = {
      ArrowRight: tabs[(at + 1) % tabs.length],
      ArrowLeft: tabs[(at - 1 + tabs.length) % tabs.length],
      Home: tabs[0],
      End: tabs[tabs.length - 1],
    }[event.key];
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.click();
  }
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={clsx(
        "bg-muted text-muted-foreground inline-flex h-9 w-fit items-center justify-center rounded-lg p-[3px]",
        className,
      )}
      onKeyDown={onListKeyDown}
      {...props}
    />
  );
}

function TabsTrigger({
  className,
  value,
  onClick,
  ...props
}: Omit<React.ComponentProps<"button">, "value"> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={idFor(tabs.baseId, "trigger", value)}
      aria-selected={selected}
      aria-controls={idFor(tabs.baseId, "content", value)}
      data-state={selected ? "active" : "inactive"}
      data-slot="tabs-trigger"
      tabIndex={selected ? 0 : -1}
      className={clsx(
        "data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm focus-visible:ring-ring/50 inline-flex h-[calc(100%-1px)] flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-3 py-1 text-sm font-medium whitespace-nowrap transition-[color,box-shadow] focus-visible:ring-[3px] focus-visible:outline-1 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4",
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

function TabsContent({ className, value, ...props }: React.ComponentProps<"div"> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <div
      role="tabpanel"
      id={idFor(tabs.baseId, "content", value)}
      aria-labelledby={idFor(tabs.baseId, "trigger", value)}
      data-state={selected ? "active" : "inactive"}
      data-slot="tabs-content"
      hidden={!selected}
      tabIndex={0}
      className={clsx("flex-1 outline-none", className)}
      {...props}
    />
  );
}

export { Tabs, TabsList, TabsTrigger, TabsContent };
