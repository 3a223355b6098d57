import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { parse } from 'yaml';

import { Validators } from './validators';

/** The API contract: the OpenAPI 3.1 document of the spec. */
export const SPEC_PATH = join(__dirname, '..', 'spec', 'openapi.yaml');

/**
 * The values an enum of the document's component schemas allows, null left out, in the document's order:
 * `enumValues('Orientation')`, `enumValues('Work', 'attributes', 'type')` (the names of nested properties).
 */
export function enumValues(schema: string, ...properties: string[]): string[] {
	const schemas = (Contract.shared().document.components as Json).schemas as Json;
	const found = properties.reduce<Json | undefined>(
		(at, name) => (at?.properties as Json | undefined)?.[name] as Json | undefined,
		schemas[schema] as Json | undefined,
	);
	if (!Array.isArray(found?.enum))
		throw new Error(`spec/openapi.yaml has no enum at ${[schema, ...properties].join('.')}`);
	return (found.enum as unknown[]).filter((value): value is string => typeof value === 'string');
}

/** One request or answer that breaks the contract, with what breaks it. */
export interface ContractViolation {
	kind: 'request' | 'response';
	method: string;
	path: string;
	message: string;
}

export interface RequestToCheck {
	method: string;
	/** The API path after the version segment, for example `/failures/open`. */
	path: string;
	query: URLSearchParams;
	headers: Record<string, string | string[] | undefined>;
	/** The parsed JSON body; undefined when the request had none. */
	body: unknown;
}

type Json = Record<string, unknown>;

interface Parameter {
	name: string;
	in: string;
	required: boolean;
	validate: ValidateFunction;
}

interface Operation {
	id: string;
	method: string;
	template: string;
	regex: RegExp;
	parameters: Parameter[];
	body?: { required: boolean; validate: ValidateFunction };
	/** Answers by status key: `200`, `2XX`, `default`; undefined when the status has no JSON body. */
	responses: Map<string, ValidateFunction | undefined>;
}

/** At most this many messages per request or answer: a 2,000-record page can break one rule 2,000 times. */
const MAX_MESSAGES = 10;
const ROOT_ID = 'openapi.yaml';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const messagesOf = (errors: ErrorObject[] | null | undefined, where: string): string[] => {
	const messages = (errors ?? []).map((e) => {
		const params = e.params as Json;
		const detail =
			'additionalProperty' in params
				? ` (${String(params.additionalProperty)})`
				: 'allowedValues' in params
					? ` (${(params.allowedValues as unknown[]).join(', ')})`
					: '';
		return `${where}${e.instancePath} ${e.message}${detail}`;
	});
	return [...new Set(messages)];
};

/** A field path as the spec's error body names it: `/locations/0/id` is `locations[0].id`. */
const fieldOf = (pointer: string, child?: string): string =>
	[...pointer.split('/').slice(1), ...(child === undefined ? [] : [child])]
		.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
		.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');

/** An `if` schema in words: `type is CYCLIC and recurrence.FREQ is HOURLY`. */
const conditionOf = (schema: Json, prefix = ''): string =>
	Object.entries((schema.properties as Record<string, Json> | undefined) ?? {})
		.map(([name, sub]) =>
			'const' in sub
				? `${prefix}${name} is ${String(sub.const)}`
				: Array.isArray(sub.enum)
					? `${prefix}${name} is ${sub.enum.join(' or ')}`
					: sub.properties
						? conditionOf(sub, `${prefix}${name}.`)
						: `${prefix}${name} is set`,
		)
		.join(' and ');

/** The names a schema requires, its branches included: what a `not` or an `anyOf` is about. */
const requiredOf = (schema: unknown): string[] =>
	!schema || typeof schema !== 'object'
		? []
		: Array.isArray(schema)
			? schema.flatMap(requiredOf)
			: Object.entries(schema as Json).flatMap(([key, value]) =>
					key === 'required' && Array.isArray(value) ? value.map(String) : requiredOf(value),
				);

const kinds = (type: unknown): string =>
	([] as unknown[])
		.concat(type)
		.filter((t) => t !== 'null')
		.join(' or ');

/** The message of one Ajv error in the wording of the API's 400 answers. */
const wordingOf = (e: ErrorObject): string => {
	const params = e.params as Json;
	switch (e.keyword) {
		case 'required':
			return 'This value is required.';
		case 'additionalProperties':
			return 'This field was not expected.';
		case 'type':
			return e.data === null
				? 'This value should not be null.'
				: `This value should be of type ${kinds(params.type)}.`;
		case 'enum':
		case 'const': {
			const values =
				e.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue];
			return `The value you selected is not a valid choice (${values.filter((v) => v !== null).join(', ')}).`;
		}
		case 'minItems':
			return `This collection should contain ${String(params.limit)} element${params.limit === 1 ? '' : 's'} or more.`;
		case 'maxItems':
			return `This collection should contain ${String(params.limit)} elements or less.`;
		case 'minimum':
			return `This value should be ${String(params.limit)} or more.`;
		case 'exclusiveMinimum':
			return `This value should be greater than ${String(params.limit)}.`;
		case 'minLength':
		case 'pattern': {
			const described = (e.parentSchema as Json | undefined)?.description;
			if (typeof e.data === 'string' && e.data.trim() === '')
				return 'This value should not be blank.';
			return typeof described === 'string'
				? `This value should be ${described.charAt(0).toLowerCase()}${described.slice(1).replace(/\.?\s*$/, '')}.`
				: `This value should match the pattern ${String(params.pattern)}.`;
		}
		case 'anyOf':
			return 'This value has none of its allowed forms.';
		default:
			return `This value ${e.message ?? 'is not valid'}.`;
	}
};

/**
 * The `properties` of the spec's 400 answer from what Ajv finds: each failing field's path, with its
 * messages. A rule inside an `if`'s `then` or `else` says the condition it depends on; an `anyOf` or a
 * `not` is reported once, on the fields it names.
 */
export function propertiesOf(errors: readonly ErrorObject[]): Record<string, string[]> {
	const branches = errors
		.filter((e) => e.keyword === 'if')
		.map((e) => ({
			at: e.instancePath,
			path: `${e.schemaPath.replace(/\/if$/, '')}/${String((e.params as Json).failingKeyword)}/`,
			otherwise: (e.params as Json).failingKeyword === 'else',
			condition: conditionOf((e.parentSchema as Json).if as Json),
		}));
	// An anyOf is reported once: its branches' errors are under its schema path, or, for a value that is
	// not an object (a date-time with two forms), at its own instance path through a $ref.
	const groups = errors.filter((e) => e.keyword === 'anyOf');
	const inGroup = (e: ErrorObject) =>
		e.keyword !== 'anyOf' &&
		groups.some(
			(g) =>
				e.schemaPath.startsWith(`${g.schemaPath}/`) ||
				(e.instancePath === g.instancePath && (typeof g.data !== 'object' || g.data === null)),
		);
	const properties: Record<string, string[]> = {};
	const add = (field: string, message: string) => {
		const messages = (properties[field || 'body'] ??= []);
		if (!messages.includes(message)) messages.push(message);
	};
	for (const e of errors) {
		if (e.keyword === 'if' || inGroup(e)) continue;
		const branch = branches
			.filter((b) => e.instancePath.startsWith(b.at) && e.schemaPath.startsWith(b.path))
			.sort((a, b) => b.path.length - a.path.length)[0];
		const when = (message: string) =>
			!branch
				? message
				: `${message.replace(/\.$/, '')} ${branch.otherwise ? 'unless' : 'when'} ${branch.condition}.`;
		const params = e.params as Json;
		if (e.keyword === 'not') {
			const present = requiredOf(e.schema).filter((name) => name in ((e.data as Json) ?? {}));
			const message = !branch
				? 'This field is not allowed with the other values sent.'
				: branch.otherwise
					? `Only allowed when ${branch.condition}.`
					: `Not allowed when ${branch.condition}.`;
			for (const name of present.length ? present : [undefined])
				add(fieldOf(e.instancePath, name), message);
		} else if (e.keyword === 'anyOf') {
			const names = [...new Set(requiredOf(e.schema))];
			add(
				fieldOf(e.instancePath, names[0]),
				when(names.length ? `${names.join(' or ')} is required.` : wordingOf(e)),
			);
		} else {
			const child = params.missingProperty ?? params.additionalProperty;
			add(
				fieldOf(e.instancePath, child === undefined ? undefined : String(child)),
				when(wordingOf(e)),
			);
		}
	}
	return properties;
}

/**
 * Checks requests and answers against the OpenAPI document with Ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1) and ajv-formats. This layer only finds the operation of a method and path and hands the
 * parts of a request or answer to the schemas the document gives them.
 */
let shared: Contract | undefined;

export class Contract {
	private readonly operations: Operation[] = [];

	private readonly errorBody: ValidateFunction;

	constructor(readonly document: Json) {
		const defs = this.rewrite((document.components as Json).schemas) as Json;
		const ajv = new Validators({ verbose: true }, ROOT_ID, defs);
		const coercing = new Validators({ coerceTypes: true }, ROOT_ID, defs);
		this.errorBody = ajv.later(() => this.rewrite({ $ref: '#/components/schemas/Error' }) as Json);
		const paths = document.paths as Record<string, Json>;
		for (const [template, item] of Object.entries(paths)) {
			for (const method of METHODS) {
				if (item[method])
					this.operations.push(this.compileOperation({ ajv, coercing }, template, method, item));
			}
		}
		// Literal paths before templated ones, so `/failures/open` never reads as `/failures/{id}`.
		this.operations.sort(
			(a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0),
		);
	}

	/**
	 * The operation of `method` on the path `template` (`item` its path item): its parameters, checked
	 * with `coercing` as they come as text, and its body and answers, checked with `ajv`.
	 */
	private compileOperation(
		{ ajv, coercing }: { ajv: Validators; coercing: Validators },
		template: string,
		method: string,
		item: Json,
	): Operation {
		const operation = item[method] as Json;
		const parameters = [
			...((item.parameters as Json[]) ?? []),
			...((operation.parameters as Json[]) ?? []),
		].map((p) => this.resolve(p));
		const requestBody = operation.requestBody
			? this.resolve(operation.requestBody as Json)
			: undefined;
		const bodySchema = (requestBody?.content as Json | undefined)?.['application/json'] as
			Json | undefined;
		const responses = new Map<string, ValidateFunction | undefined>();
		for (const [status, response] of Object.entries(operation.responses as Json)) {
			const content = (this.resolve(response as Json).content as Json | undefined)?.[
				'application/json'
			] as Json | undefined;
			responses.set(
				status.toUpperCase(),
				content?.schema ? ajv.later(() => this.rewrite(content.schema) as Json) : undefined,
			);
		}
		return {
			id: String(operation.operationId ?? `${method} ${template}`),
			method: method.toUpperCase(),
			template,
			regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
			parameters: parameters.map((p) => ({
				name: String(p.name),
				in: String(p.in),
				required: Boolean(p.required),
				validate: coercing.later(() => ({
					type: 'object',
					properties: { value: this.rewrite(p.schema ?? {}) },
				})),
			})),
			body: bodySchema?.schema
				? {
						required: Boolean(requestBody?.required),
						validate: ajv.later(() => this.rewrite(bodySchema.schema) as Json),
					}
				: undefined,
			responses,
		};
	}

	/** Reads the document (YAML) from a file. */
	static load(path = SPEC_PATH): Contract {
		return new Contract(parse(readFileSync(path, 'utf8')) as Json);
	}

	/** The contract of spec/openapi.yaml, read once per process: every sandbox of a test run shares it. */
	static shared(): Contract {
		return (shared ??= Contract.load());
	}

	/** The operations of the document, as `METHOD /template`. */
	get operationNames(): string[] {
		return this.operations.map((o) => `${o.method} ${o.template}`);
	}

	/** Finds the operation of a method and path. */
	operation(method: string, path: string): Operation | undefined {
		return this.operations.find((o) => o.method === method && o.regex.test(path));
	}

	/** What is wrong with a request: an unknown operation, parameters, headers, the body. */
	checkRequest(request: RequestToCheck): string[] {
		const { method, path, query, headers, body } = request;
		const operation = this.operation(method, path);
		if (!operation) return [`no operation of the document is ${method} ${path}`];
		const problems: string[] = [];
		const auth = String(headers.authorization ?? '');
		if (!/^Bearer \S+$/.test(auth))
			problems.push(
				'header Authorization is not "Bearer <token>" (one space, no whitespace after)',
			);
		if (!String(headers.accept ?? '').includes('application/json'))
			problems.push('header Accept does not name application/json');
		for (const name of this.unlistedQuery(method, path, query))
			problems.push(`query ${name} is not a parameter of ${operation.id}`);
		const pathValues = this.pathValues(operation, path);
		for (const parameter of operation.parameters) {
			const value =
				parameter.in === 'path'
					? pathValues[parameter.name]
					: parameter.in === 'query'
						? (query.get(parameter.name) ?? undefined)
						: parameter.in === 'header'
							? headers[parameter.name.toLowerCase()]
							: undefined;
			if (value === undefined) {
				if (parameter.required) problems.push(`${parameter.in} ${parameter.name} is required`);
				continue;
			}
			if (!parameter.validate({ value }))
				problems.push(
					...messagesOf(parameter.validate.errors, `${parameter.in} ${parameter.name}`).map((m) =>
						m.replace('/value', ''),
					),
				);
		}
		if (body !== undefined) {
			if (!String(headers['content-type'] ?? '').startsWith('application/json'))
				problems.push('header Content-Type is not application/json on a request with a body');
			if (!operation.body) problems.push('body: this operation takes no body');
			else if (!operation.body.validate(body))
				problems.push(...messagesOf(operation.body.validate.errors, 'body'));
		} else if (operation.body?.required) problems.push('body: this operation requires a body');
		return problems.slice(0, MAX_MESSAGES);
	}

	/** The names of a request's query that the document does not list for its operation, each once. */
	unlistedQuery(method: string, path: string, query: URLSearchParams): string[] {
		const operation = this.operation(method, path);
		if (!operation) return [];
		const listed = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
		return [...new Set(query.keys())].filter((name) => !listed.includes(name));
	}

	/**
	 * The body's problems as the `properties` of the spec's 400 answer; empty when the body keeps the
	 * operation's schema, or the document gives the operation no body.
	 */
	bodyProblems(method: string, path: string, body: unknown): Record<string, string[]> {
		const validate = this.operation(method, path)?.body?.validate;
		return !validate || validate(body) ? {} : propertiesOf(validate.errors ?? []);
	}

	/** What is wrong with an answer: a status the operation does not declare, or a body its schema refuses. */
	checkResponse(method: string, path: string, status: number, body: unknown): string[] {
		const operation = this.operation(method, path);
		const validate = operation
			? this.responseFor(operation, status)
			: status >= 400
				? this.errorBody
				: undefined;
		if (validate === null) return [`status ${status} is not declared by ${operation!.id}`];
		if (!validate || validate(body)) return [];
		return messagesOf(validate.errors, 'body').slice(0, MAX_MESSAGES);
	}

	/** The schema of an answer: the exact status, then its range (`2XX`), then `default`; null when none is declared. */
	private responseFor(operation: Operation, status: number): ValidateFunction | undefined | null {
		for (const key of [String(status), `${String(status)[0]}XX`, 'DEFAULT'])
			if (operation.responses.has(key)) return operation.responses.get(key);
		return null;
	}

	private pathValues(operation: Operation, path: string): Record<string, string> {
		const names = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
		const values = new RegExp(`^${operation.template.replace(/\{[^}]+\}/g, '([^/]+)')}$`)
			.exec(path)!
			.slice(1);
		return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i])]));
	}

	/** Follows a `$ref` to a parameter, request body or response of the document's components. */
	private resolve(object: Json): Json {
		const ref = object.$ref;
		if (typeof ref !== 'string') return object;
		const target = ref
			.replace(/^#\//, '')
			.split('/')
			.reduce<unknown>((value, key) => (value as Json)[key], this.document);
		return this.resolve(target as Json);
	}

	/** Points the document's schema references at the schemas registered with Ajv. */
	private rewrite(schema: unknown): unknown {
		if (Array.isArray(schema)) return schema.map((s) => this.rewrite(s));
		if (!schema || typeof schema !== 'object') return schema;
		const out: Json = {};
		for (const [key, value] of Object.entries(schema as Json))
			out[key] =
				key === '$ref' && typeof value === 'string'
					? value.replace('#/components/schemas/', `${ROOT_ID}#/$defs/`)
					: this.rewrite(value);
		return out;
	}
}
