/** A TCP port free on loopback right now, for a server a script is about to start. */
const { createServer } = require('node:net');

const freePort = () =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});

module.exports = { freePort };
