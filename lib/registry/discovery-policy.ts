// Which verified listings x402 discovery may show. Discovery is read by programs that pay on their own, so it
// lists only real offers: never a sample listing, never a payee nobody can be paid at, and a server on a
// loopback or private address only where the probe may reach such servers (PROBE_ALLOW_PRIVATE_HOSTS: local
// development, tests and the sandbox; a production build refuses it unless UNSAFE_TEST_MODE=1).
import type { DiscoveryExclusions } from "@/db/queries/discovery";
import { env } from "@/lib/env";
import { SAMPLE_SERVER_URL_PATTERN, sampleServerUrls } from "@/lib/sample-catalogue/identity";

/** Addresses that receive nothing anyone can spend: the zero address and the customary burn address. */
const PLACEHOLDER_PAYEES = ["0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dead"];

export function discoveryExclusions(): DiscoveryExclusions {
  return {
    includePrivateHosts: env().PROBE_ALLOW_PRIVATE_HOSTS,
    placeholderPayees: PLACEHOLDER_PAYEES,
    sampleServerUrls: sampleServerUrls(),
    sampleServerUrlPattern: SAMPLE_SERVER_URL_PATTERN,
  };
}
