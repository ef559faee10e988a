// A dedicated PostgreSQL connection that listens on one channel. The pool cannot do this (LISTEN belongs to a
// session); postgres-js keeps the session, reconnects after a restart, and says so through onConnect each time.
type ListenHandlers = {
  onMessage: (payload: string) => void;
  /** After the first LISTEN and after every reconnect: notifications sent in between were missed. */
  onConnect: () => void;
};

export type Listener = { close: () => Promise<void> };

export async function listen(url: string, channel: string, handlers: ListenHandlers): Promise<Listener> {
  const { default: postgres } = await import("postgres");
  const client = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  await client.listen(channel, handlers.onMessage, handlers.onConnect);
  return { close: () => client.end({ timeout: 2 }) };
}
