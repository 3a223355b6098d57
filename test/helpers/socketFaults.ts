import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { constants } from 'node:os';

/**
 * Faults of this process's own client sockets, raised the way Node raises them, for the suites that run
 * the node in-process: n8n-core opens its sockets through Node's net module, which announces each one
 * on the diagnostics channel `net.client.socket`. A fault no loopback server can cause (a host that
 * stops answering on an open connection, a name server down) then reaches n8n-core as it would from the
 * network.
 */

/** A failed system call on a client socket: its step (a name lookup, the connect, a read or a write) and its code. */
export interface SocketFault {
	syscall: 'getaddrinfo' | 'connect' | 'read' | 'write';
	code: string;
}

/**
 * Faults of a connection that was open and had sent the request, once the server has read all of it:
 * Linux raises an unreachable host or network and a time-out there too, when retransmissions or
 * keep-alive probes give up, and a refused connection when an ICMP port unreachable arrives as a soft
 * error (a REJECT rule, a load balancer failing over). The server may have processed the request.
 */
export const FAULTS_AFTER_SENDING: SocketFault[] = (['read', 'write'] as const).flatMap((syscall) =>
	['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE', 'ECONNREFUSED'].map(
		(code) => ({
			syscall,
			code,
		}),
	),
);

/** Faults of the connect step, and of the host name's lookup before it: nothing was sent. */
export const FAULTS_BEFORE_SENDING: SocketFault[] = [
	...['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNREFUSED'].map((code) => ({
		syscall: 'connect' as const,
		code,
	})),
	{ syscall: 'getaddrinfo', code: 'ENOTFOUND' },
	{ syscall: 'getaddrinfo', code: 'EAI_AGAIN' },
];

/** The errno of a name lookup's codes, which are not the system's own. */
const LOOKUP_ERRNO: Record<string, number> = { ENOTFOUND: -3008, EAI_AGAIN: -3001 };

/** The error Node gives for a fault: `read EHOSTUNREACH`, with its code, errno and system call. */
export function systemError({ syscall, code }: SocketFault): NodeJS.ErrnoException {
	const errno = LOOKUP_ERRNO[code] ?? -(constants.errno as Record<string, number>)[code];
	if (Number.isNaN(errno)) throw new Error(`${code} is no system error code`);
	return Object.assign(new Error(`${syscall} ${code}`), { errno, code, syscall });
}

const open = new Set<Socket>();
let connecting: SocketFault | undefined;

subscribe('net.client.socket', (message) => {
	const { socket } = message as { socket: Socket };
	const fault = connecting;
	// Net announces a socket before it starts to connect; the fault comes before any byte can leave.
	if (fault) queueMicrotask(() => socket.destroy(systemError(fault)));
	else {
		open.add(socket);
		socket.once('close', () => open.delete(socket));
	}
});

/**
 * Makes every connection this process opens while `run` runs fail at `fault`'s step (a name lookup or
 * the connect), before anything is sent.
 */
export async function connectionsFailing<T>(fault: SocketFault, run: () => Promise<T>): Promise<T> {
	connecting = fault;
	try {
		return await run();
	} finally {
		connecting = undefined;
	}
}

/**
 * Fails the client socket of this process at the other end of a server's connection `serverSide`, as a
 * read or write on it fails: the server has what the client sent, and the client gets the error.
 */
export function failClientOf(serverSide: Socket, fault: SocketFault): void {
	const client = [...open].find(
		(socket) =>
			socket.localPort === serverSide.remotePort && socket.remotePort === serverSide.localPort,
	);
	if (!client) throw new Error('The client of this connection is not a socket of this process');
	client.destroy(systemError(fault));
}
