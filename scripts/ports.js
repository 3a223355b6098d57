/** A TCP port free on loopback right now, for a server a script is about to start (get-port). */
const freePort = async () => {
	const { default: getPort } = await import('get-port');
	return await getPort({ host: '127.0.0.1' });
};

module.exports = { freePort };
