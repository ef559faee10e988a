// The name an imported registry entry is listed under in Agora's registry API. It keeps its upstream name, as the
// official registry asks of aggregators, unless another listing already answers to that name (a listing submitted
// here is "<namespace>/<slug>", an imported one its stored name): then it takes the first free suffix ("-2", "-3",
// …), so no name is listed twice and no listing is renamed, hidden or taken over by a newcomer copying its name.
import { registryNameHeld } from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { slugFromRegistryName } from "@/lib/listings/presenters/server-json";

/** Suffixes tried in order before a random one (a name copied this often is an attack, not a coincidence). */
const NUMBERED_SUFFIXES = 8;

/** The first of `name`, `name-2`, `name-3`, … that no listing holds (a registry name is at most 200 characters). */
export async function freeRegistryName(db: Db, name: string): Promise<string> {
  for (let n = 1; n <= NUMBERED_SUFFIXES + 1; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${name.slice(0, 200 - suffix.length)}${suffix}`;
    if (!(await registryNameHeld(db, candidate, slugFromRegistryName(candidate)))) return candidate;
  }
  const suffix = `-${Math.random().toString(36).slice(2, 10)}`;
  return `${name.slice(0, 200 - suffix.length)}${suffix}`;
}
