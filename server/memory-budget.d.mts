// Types for server/memory-budget.mjs (a plain module the preloads and the route cache load at run time).
export declare const ROUTE_CACHE_BYTES: number;
export declare const RENDER_PLACES: number;
export declare function entryBytes(value: unknown, key: string): number;
