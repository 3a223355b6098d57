/**
 * Debian's chromium for the scripts and tests that drive n8n's editor through playwright-core: installed
 * with apt-get when it is missing (as root), and launched headless with the flags that keep it quiet.
 */
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

function ensureChromium(log = (message) => process.stdout.write(`${message}\n`)) {
	if (existsSync(CHROMIUM)) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`,
		);
	}
	log("installing Debian's chromium package…");
	const apt = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'] });
	apt(['update', '-qq']);
	apt(['install', '-y', '-qq', 'chromium']);
}

/** Launches chromium headless (installing it first when needed). */
async function launchChromium() {
	ensureChromium();
	const { chromium } = require('playwright-core');
	return await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

module.exports = { launchChromium };
