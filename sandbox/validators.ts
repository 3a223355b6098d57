import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv/dist/2020';

type Json = Record<string, unknown>;

/**
 * Node's own require, from this folder. It loads Ajv only when a validator must be compiled, and the
 * compiled validators, whose code requires Ajv's runtime helpers and ajv-formats' formats: from the
 * cache folder below, those resolve to the project's node_modules. A process loads each module once.
 */
const load = createRequire(__filename);

/** Where compiled validators are kept, one file each: the project's node_modules/.cache, which git and npm leave alone. */
export const VALIDATOR_CACHE = join(
	__dirname,
	'..',
	'node_modules',
	'.cache',
	'maintenance-management-sandbox',
);

/** The options of every Ajv here, besides the two that differ (`verbose`, `coerceTypes`). */
const AJV_OPTIONS = {
	allErrors: true,
	allowUnionTypes: true,
	strictTypes: false,
	code: { source: true },
};
/** The document's own keywords, which carry no rule. */
const KEYWORDS = ['x-assumption'];
/** The versions of the packages that write the validators' code. */
const VERSIONS = ['ajv', 'ajv-formats'].map(
	(name) => `${name}@${(load(`${name}/package.json`) as { version: string }).version}`,
);

export interface ValidatorOptions {
	verbose?: boolean;
	coerceTypes?: boolean;
}

/**
 * The validators of one Ajv configuration (JSON Schema 2020-12 with ajv-formats) over the schemas
 * `defs`, registered as the document `rootId`. A validator compiles on its first use, so only the
 * schemas a run uses are compiled. Its code (Ajv's standalone code) is kept in `cache` under a hash of
 * everything that makes it: Ajv's and ajv-formats' versions, the options, the keywords, `defs` and the
 * schema. A later process, or a later test file, loads that file instead of compiling, and needs no Ajv.
 * A file that does not load is compiled and written again; a file is written whole or not at all (to a
 * name of its own, then renamed), so processes that compile the same schema at once do not clash.
 */
export class Validators {
	private ajv?: Ajv2020;

	private readonly digest: string;

	constructor(
		private readonly options: ValidatorOptions,
		private readonly rootId: string,
		private readonly defs: Json,
		private readonly cache = VALIDATOR_CACHE,
	) {
		this.digest = createHash('sha256')
			.update(JSON.stringify({ VERSIONS, AJV_OPTIONS, KEYWORDS, options, rootId }))
			.update(JSON.stringify(defs))
			.digest('hex');
	}

	/** A validator of the schema `schema()` returns, made on the validator's first use. */
	later(schema: () => Json): ValidateFunction {
		let made: ValidateFunction | undefined;
		const validate = ((data: unknown) => {
			made ??= this.make(schema());
			const valid = made(data);
			validate.errors = made.errors;
			return valid;
		}) as ValidateFunction;
		return validate;
	}

	/** The validator of `schema`: loaded from the cache, else compiled and written there. */
	private make(schema: Json): ValidateFunction {
		const key = createHash('sha256').update(this.digest).update(JSON.stringify(schema));
		const file = join(this.cache, `${key.digest('hex')}.js`);
		try {
			return this.loaded(file);
		} catch {
			// Not written yet, or not loadable: compiled below, and written again.
		}
		const ajv = this.instance();
		const compiled = ajv.compile(schema);
		const code = (load('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default(
			ajv,
			compiled,
		);
		try {
			mkdirSync(this.cache, { recursive: true });
			const partial = `${file}.${process.pid}.partial`;
			writeFileSync(partial, code);
			renameSync(partial, file);
			return this.loaded(file);
		} catch {
			// A cache that cannot be written: this process uses what it compiled.
			return compiled;
		}
	}

	private loaded(file: string): ValidateFunction {
		const validate: unknown = load(file);
		if (typeof validate !== 'function') throw new Error(`${file} holds no validator`);
		return validate as ValidateFunction;
	}

	/** The Ajv that compiles, made on the first compilation. */
	private instance(): Ajv2020 {
		if (this.ajv) return this.ajv;
		const Ajv = (load('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
		const addFormats = (load('ajv-formats') as typeof import('ajv-formats')).default;
		const ajv = new Ajv({ ...AJV_OPTIONS, ...this.options });
		addFormats(ajv);
		for (const keyword of KEYWORDS) ajv.addKeyword(keyword);
		ajv.addSchema({ $id: this.rootId, $defs: this.defs });
		return (this.ajv = ajv);
	}
}
