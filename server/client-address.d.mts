// Types for the preload (plain JavaScript so that `node --import` can load it without a build step).
export declare const CLIENT_ADDRESS_HEADER: "x-agora-client-address";
