import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** An IPv4 or IPv6 address as /proc/net/tcp{,6} writes it (32-bit words in host byte order). */
function decode(hex: string): string {
	const words = hex.match(/.{8}/g) ?? [];
	const bytes = words.flatMap((word) =>
		(word.match(/.{2}/g) ?? []).reverse().map((pair) => parseInt(pair, 16)),
	);
	if (bytes.length === 4) return bytes.join('.');
	const groups = [];
	for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
	// The URL parser writes an IPv6 address in its short form, such as [::1].
	return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}

/** The socket inodes a process holds open. */
function socketsOf(pid: number): Set<string> {
	const inodes = new Set<string>();
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		try {
			const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
			const match = /^socket:\[(\d+)\]$/.exec(target);
			if (match) inodes.add(match[1]);
		} catch {
			// closed while reading
		}
	}
	return inodes;
}

/** Every TCP address and port the given processes listen on, read from /proc. */
export function listeningAddresses(
	pids: number[],
): Array<{ pid: number; address: string; port: number }> {
	const listening = new Map<string, { address: string; port: number }>();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields.length < 10 || fields[3] !== '0A') continue;
			const [address, port] = fields[1].split(':');
			listening.set(fields[9], { address: decode(address), port: parseInt(port, 16) });
		}
	}
	return pids.flatMap((pid) =>
		[...socketsOf(pid)].flatMap((inode) =>
			listening.has(inode) ? [{ pid, ...listening.get(inode)! }] : [],
		),
	);
}
