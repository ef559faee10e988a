// The e2e site's test-purchase wallet key: derived from the run's port (never written down), unfunded, and only
// there so the admin page has a wallet to show and the spec can check the key never reaches a page.
import { createHash } from "node:crypto";
import { appPort } from "./ports";

export const e2eTestPurchaseKey = `0x${createHash("sha256").update(`agora-e2e-test-purchase-${appPort}`).digest("hex")}`;
