// Runs a documented command as a person runs it (`npm run <name>`), in a fresh process with only what a user sets.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A frame of a JavaScript stack trace, as Node prints an uncaught error. */
export const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;

export type Run = { code: number | null; output: string };

/** Nothing of this process's environment but PATH; HOME is a directory of the test's own. */
function userEnv(home: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH!,
    HOME: home,
    npm_config_update_notifier: "false",
    ...env,
  } as unknown as NodeJS.ProcessEnv;
}

/** Starts `npm run -s <script> -- …args` in its own process group (so the whole tree can be stopped); output collects. */
export function startNpm(
  script: string,
  args: string[],
  env: Record<string, string>,
  home: string,
): { child: ChildProcess; output: () => string } {
  const child = spawn("npm", ["run", "-s", script, ...(args.length ? ["--", ...args] : [])], {
    env: userEnv(path.resolve(home), env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

/** Runs `npm run -s <script> -- …args` to its end. */
export function npmRun(
  script: string,
  args: string[],
  env: Record<string, string>,
  home: string,
  timeoutMs = 120_000,
): Promise<Run> {
  const { child, output } = startNpm(script, args, env, home);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output() });
    });
  });
}

/** Stops a command started with startNpm as Ctrl-C would (its whole process group), then for good after `graceMs`. */
export async function stopNpm(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid!, "SIGINT");
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
