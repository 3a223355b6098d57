const { createServer } = require('node:net');

/**
 * The port a listener on loopback gets when it asks for `port` (0: any free one), or undefined when
 * that port is taken or not allowed to this user.
 */
const tryPort = (port) =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', (error) =>
			['EADDRINUSE', 'EACCES'].includes(error.code) ? resolve(undefined) : reject(error),
		);
		server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
			const { port: got } = server.address();
			server.close(() => resolve(got));
		});
	});

/** A TCP port free on loopback right now, for a server a script is about to start. */
const freePort = async () => await tryPort(0);

module.exports = { freePort, tryPort };
