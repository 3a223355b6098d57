/**
 * The example trigger's webhook in `npm run dev`: a random path and a random secret for each dev folder,
 * made on its first run and kept in `<folder>/dev-webhook.json` (readable by its owner only), so that no
 * web page can know either and the URL registered in the sandbox stays valid between restarts.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** Reads the folder's webhook path and secret, making them on its first run. */
function devWebhook(folder) {
	const file = join(folder, 'dev-webhook.json');
	try {
		const kept = JSON.parse(readFileSync(file, 'utf8'));
		if (typeof kept.id === 'string' && typeof kept.secret === 'string' && kept.secret.length >= 32)
			return { id: kept.id, secret: kept.secret };
	} catch (error) {
		if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
	}
	const made = { id: randomUUID(), secret: randomBytes(24).toString('base64url') };
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	writeFileSync(file, `${JSON.stringify(made)}\n`, { mode: 0o600 });
	return made;
}

module.exports = { devWebhook };
