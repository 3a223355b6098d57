import { parsePageCaps, startSandbox } from './index';

/**
 * `npm run sandbox`: prints one JSON line with the URLs and tokens, then serves until stopped. It checks
 * requests and answers against spec/openapi.yaml and prints each violation (SANDBOX_CONTRACT=0 turns that
 * off); SANDBOX_PAGE_CAPS="failures=100,locations=50" sets page-size caps; SANDBOX_WEBHOOK_SECRET is the
 * secret its console adds to a pasted n8n webhook URL.
 */
async function main(): Promise<void> {
	const seed: Record<string, number> = {};
	for (const [name, value] of Object.entries(process.env)) {
		const match = name.match(/^SANDBOX_SEED_([A-Z_]+)$/);
		if (match && value)
			seed[match[1].toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] =
				Number(value);
	}
	const sandbox = await startSandbox({
		port: Number(process.env.SANDBOX_PORT ?? 4010),
		seed,
		contract: process.env.SANDBOX_CONTRACT !== '0',
		pageCaps: parsePageCaps(process.env.SANDBOX_PAGE_CAPS ?? ''),
		webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET,
	});
	const { url, controlUrl, consoleUrl, environments } = sandbox;
	process.stdout.write(`${JSON.stringify({ url, controlUrl, consoleUrl, environments })}\n`);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
