import type { Server } from 'node:http';

/** An address to listen on, with the variables that set it, for messages. */
export interface ListenAddress {
  host: string;
  port: number;
  hostVariable: string;
  portVariable: string;
}

const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

/** Starts `server` listening; a failure rejects with a message naming the variable and value at fault. */
export async function listenOn(server: Server, address: ListenAddress): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => reject(new Error(listenFailure(error, address), { cause: error }));
    server.once('error', failed);
    server.listen(address.port, address.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Why a server could not listen, naming the variable to change and how. */
export function listenFailure(error: NodeJS.ErrnoException, { host, port, hostVariable, portVariable }: ListenAddress): string {
  if (error.code === 'EADDRINUSE') return `Port ${port} on ${host} is in use: stop the server that holds it, or choose another with ${portVariable}.`;
  if (error.code === 'EACCES') return `Port ${port} on ${host} needs privileges this process does not have: choose a port from 1024 up with ${portVariable}.`;
  if (error.code && UNRESOLVED.has(error.code)) {
    return `${hostVariable}=${host} does not resolve to an address (${error.code}): set ${hostVariable} to an address of this machine, such as 127.0.0.1, or 0.0.0.0 for every interface.`;
  }
  if (error.code === 'EADDRNOTAVAIL') return `${hostVariable}=${host} is not an address of this machine: set ${hostVariable} to one of its addresses, or 0.0.0.0 for every interface.`;
  return `Cannot listen on ${host} port ${port} (${hostVariable}, ${portVariable}): ${error.message}`;
}
