import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { devWebhook } from '../../scripts/devWebhook';

/** `npm run dev`'s example webhook: no web page can guess its path or secret. */
describe('the dev webhook', () => {
	const folders: string[] = [];
	const folder = () => {
		const made = mkdtempSync(join(tmpdir(), 'mm-dev-webhook-'));
		folders.push(made);
		return made;
	};
	afterAll(() => {
		for (const made of folders) rmSync(made, { recursive: true, force: true });
	});

	it('is random for each dev folder: path and secret', () => {
		const [first, second] = [devWebhook(folder()), devWebhook(folder())];
		expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(first.secret).toMatch(/^[\w-]{32}$/);
		expect(second.id).not.toBe(first.id);
		expect(second.secret).not.toBe(first.secret);
	});

	it('is kept between runs, in a file only its owner reads', () => {
		const dir = folder();
		const made = devWebhook(dir);
		expect(devWebhook(dir)).toEqual(made);
		const file = join(dir, 'dev-webhook.json');
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(made);
		expect(statSync(file).mode & 0o077).toBe(0);
	});

	it('makes its folder, when new, readable by its owner only', () => {
		const dir = join(folder(), 'new');
		devWebhook(dir);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
	});

	it('is made again when the kept file is broken or holds a short secret', () => {
		for (const text of ['{not json', JSON.stringify({ id: 'x', secret: 'short' })]) {
			const dir = folder();
			writeFileSync(join(dir, 'dev-webhook.json'), text);
			const made = devWebhook(dir);
			expect(made.secret).toHaveLength(32);
			expect(devWebhook(dir)).toEqual(made);
		}
	});

	it('is what scripts/dev.js uses, with no secret of its own', () => {
		const dev = readFileSync(join(__dirname, '..', '..', 'scripts', 'dev.js'), 'utf8');
		expect(dev).toContain('devWebhook(USER_FOLDER)');
		expect(dev).not.toMatch(/WEBHOOK_(?:SECRET|ID) = '/);
	});
});
