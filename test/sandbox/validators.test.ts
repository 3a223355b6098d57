import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Validators, type ValidatorOptions } from '../../sandbox/validators';

/** Schemas with the keywords whose errors the sandbox words: $ref, if/then, anyOf, not, formats, patterns. */
const ROOT = 'test.yaml';
const DEFS = {
	Moment: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'integer' }] },
	Job: {
		type: 'object',
		additionalProperties: false,
		required: ['type'],
		properties: {
			type: { enum: ['CYCLIC', 'ONCE', null] },
			code: { type: 'string', pattern: '^[A-Z]+$', description: 'Capital letters only.' },
			start: { $ref: `${ROOT}#/$defs/Moment` },
			every: { type: 'integer', minimum: 1 },
		},
		if: { properties: { type: { const: 'CYCLIC' } } },
		then: { required: ['every'] },
		else: { not: { required: ['every'] } },
	},
};
const JOB = { $ref: `${ROOT}#/$defs/Job` };
const COUNT = { type: 'object', properties: { value: { type: 'integer', minimum: 0 } } };
const BODIES: unknown[] = [
	{ type: 'CYCLIC', every: 2, start: '2026-01-01T00:00:00Z' },
	{ type: 'CYCLIC', code: 'abc', start: 'soon' },
	{ type: 'ONCE', every: 3, extra: true },
	{ type: 'DAILY', start: null },
	{},
	'not an object',
];

const folders: string[] = [];
const folder = () => {
	const made = mkdtempSync(join(tmpdir(), 'mm-validators-'));
	folders.push(made);
	return made;
};
afterAll(() => folders.forEach((made) => rmSync(made, { recursive: true, force: true })));

const validators = (
	cache: string,
	options: ValidatorOptions = { verbose: true },
	defs: Record<string, unknown> = DEFS,
) => new Validators(options, ROOT, defs, cache);

/** What a validator says of each body: its verdict and its errors, all of them. */
const verdicts = (validate: ReturnType<Validators['later']>, bodies = BODIES) =>
	bodies.map((body) => [validate(body), validate.errors]);

describe('the sandbox validators', () => {
	it('write the code of the schemas used only, one file each, and find the same errors as Ajv compiled in memory', () => {
		const cache = folder();
		const cached = validators(cache);
		const job = cached.later(() => JOB);
		cached.later(() => {
			throw new Error('an unused validator is never made');
		});
		expect(readdirSync(cache)).toEqual([]);
		const found = verdicts(job);
		expect(readdirSync(cache)).toHaveLength(1);
		// A cache folder that cannot be made: the validator Ajv compiled in memory, the same rules.
		const unwritable = join(cache, readdirSync(cache)[0], 'below-a-file');
		expect(verdicts(validators(unwritable).later(() => JOB))).toEqual(found);
		expect(found.map(([valid]) => valid)).toEqual([true, false, false, false, false, false]);
		expect(JSON.stringify(found)).toMatch(/"keyword":"if".*"failingKeyword":"then"/);
		expect(JSON.stringify(found)).toMatch(/"keyword":"not".*"failingKeyword":"else"/);
	});

	it('coerce text as the validators Ajv compiles in memory do', () => {
		const cache = folder();
		const texts = () => ['3', '-1', 'x', '', 'true'].map((value) => ({ value }));
		const options = { coerceTypes: true };
		const coerced = (validate: ReturnType<Validators['later']>) => {
			const bodies = texts();
			return [verdicts(validate, bodies), bodies];
		};
		const cached = coerced(validators(cache, options).later(() => COUNT));
		expect(readdirSync(cache)).toHaveLength(1);
		const unwritable = join(cache, readdirSync(cache)[0], 'below-a-file');
		expect(coerced(validators(unwritable, options).later(() => COUNT))).toEqual(cached);
		expect(cached[1]).toEqual([
			{ value: 3 },
			{ value: -1 },
			{ value: 'x' },
			{ value: '' },
			{ value: 'true' },
		]);
	});

	it('load a written validator in a later run instead of compiling it', () => {
		const first = folder();
		verdicts(validators(first).later(() => JOB));
		const [name] = readdirSync(first);
		// A later run with a cache that already holds a file by that name uses it as it stands.
		const later = folder();
		writeFileSync(join(later, name), 'module.exports = () => false;');
		expect(verdicts(validators(later).later(() => JOB))[0][0]).toBe(false);
	});

	it('compile again, and write again, a cached file that does not load', () => {
		const first = folder();
		const found = verdicts(validators(first).later(() => JOB));
		const [name] = readdirSync(first);
		for (const broken of ['module.exports = (', 'module.exports = 42;']) {
			const cache = folder();
			writeFileSync(join(cache, name), broken);
			expect(verdicts(validators(cache).later(() => JOB))).toEqual(found);
			expect(readFileSync(join(cache, name), 'utf8')).toBe(readFileSync(join(first, name), 'utf8'));
			expect(readdirSync(cache)).toEqual([name]);
		}
	});

	it('key each file by the options, the registered schemas and the schema', () => {
		const cache = folder();
		const names = () => readdirSync(cache).length;
		validators(cache).later(() => COUNT)({ value: 1 });
		validators(cache).later(() => COUNT)({ value: 1 });
		expect(names()).toBe(1);
		const coercing = validators(cache, { coerceTypes: true }).later(() => COUNT);
		expect(coercing({ value: '3' })).toBe(true);
		expect(names()).toBe(2);
		validators(cache, { verbose: true }, { ...DEFS, Other: { type: 'string' } }).later(() => COUNT)(
			{ value: 1 },
		);
		expect(names()).toBe(3);
		validators(cache).later(() => ({ ...COUNT, required: ['value'] }))({ value: 1 });
		expect(names()).toBe(4);
	});
});
