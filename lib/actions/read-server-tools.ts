"use server";
import { getDb } from "@/lib/database";
import { readToolChoices } from "@/lib/listings/submit/tool-choices";
import { toolListRequestSchema } from "@/lib/validations/server-submission";
import { userAction } from "./result";

/** "Read the server's tools" on the submit and edit forms: the server's tools/list as a checklist; no tool is called. */
export async function readServerTools(values: { mcpServerUrl: string }) {
  return userAction("readServerTools", toolListRequestSchema, values, async ({ mcpServerUrl }, userId) =>
    readToolChoices(await getDb(), userId, mcpServerUrl),
  );
}
