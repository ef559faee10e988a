// Every port the sandbox will listen on is tried before anything starts, so a taken one stops it with one line
// naming the flag, before a chain is started or a file written.
import net from "node:net";

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Throws one line for the first taken port: which flag, which address, what to do. */
export async function checkPortsFree(ports: { flag: string; port: number }[]): Promise<void> {
  for (const { flag, port } of ports) {
    if (!(await free(port))) {
      throw new Error(
        `--${flag} ${port}: 127.0.0.1:${port} is already in use. Stop what listens there, or start the sandbox with --${flag} <another port> (npm run sandbox -- --${flag} <port>).`,
      );
    }
  }
}
