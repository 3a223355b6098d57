import { startSandbox } from './index';

/** `npm run sandbox`: prints one JSON line with the URLs and tokens, then serves until stopped. */
async function main(): Promise<void> {
	const seed: Record<string, number> = {};
	for (const [name, value] of Object.entries(process.env)) {
		const match = name.match(/^SANDBOX_SEED_([A-Z_]+)$/);
		if (match && value)
			seed[match[1].toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] =
				Number(value);
	}
	const sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT ?? 4010), seed });
	const { url, controlUrl, environments } = sandbox;
	process.stdout.write(`${JSON.stringify({ url, controlUrl, environments })}\n`);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
