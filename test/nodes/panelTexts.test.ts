import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { resources, resourceSelector } from '../../nodes/MaintenanceManagement/actions/resources';

/** The most characters a description, hint or notice shows in the panel; more goes behind a link. */
const MAX_LENGTH = 200;

interface Described {
	name?: string;
	value?: unknown;
	type?: string;
	displayName?: string;
	description?: string;
	hint?: string;
	builderHint?: { propertyHint?: string };
	options?: unknown[];
	values?: unknown[];
}

/**
 * Every description, hint and notice of a list of properties, nested options and values included,
 * as "where: text", the text as the panel shows it (HTML tags left out); and every builder hint, which
 * n8n's AI workflow builders read beside them, as "where (builder hint): text".
 */
const texts = (where: string, list: unknown[] = []): string[] =>
	(list as Described[]).flatMap((property) => {
		const at = `${where} ${property.name ?? String(property.value)}`;
		const own = [
			property.description,
			property.hint,
			property.type === 'notice' ? property.displayName : undefined,
		].filter((text): text is string => typeof text === 'string');
		return [
			...own.map((text) => `${at}: ${text.replace(/<[^>]+>/g, '')}`),
			...(property.builderHint?.propertyHint
				? [`${at} (builder hint): ${property.builderHint.propertyHint}`]
				: []),
			...texts(at, property.options),
			...texts(at, property.values),
		];
	});

describe('the texts of the panels', () => {
	const all = [
		...texts('action', new MaintenanceManagement().description.properties),
		...texts('trigger', new MaintenanceManagementTrigger().description.properties),
		...texts('API credential', new MaintenanceManagementApi().properties),
		...texts('webhook credential', new MaintenanceManagementWebhookApi().properties),
		// What n8n's AI workflow builders read of each node itself.
		...[new MaintenanceManagement(), new MaintenanceManagementTrigger()].flatMap(
			({ description: { name, builderHint } }) => [
				`${name} (builder hint): ${builderHint?.searchHint ?? ''}`,
				...(builderHint?.relatedNodes ?? []).map(
					(related) => `${name} (builder hint) ${related.nodeType}: ${related.relationHint}`,
				),
			],
		),
	];

	it(`keeps every description, hint, notice and builder hint of both nodes and both credentials to ${MAX_LENGTH} characters`, () => {
		expect(all.length).toBeGreaterThan(300);
		expect(all.filter((text) => text.includes('(builder hint): ')).length).toBeGreaterThan(15);
		const long = all.filter((text) => text.slice(text.indexOf(': ') + 2).length > MAX_LENGTH);
		expect(long).toEqual([]);
	});

	it('speaks to a user of the package alone: no text names a clone, npm run or the local sandbox', () => {
		// A user who installed the package by name has no clone and no npm run dev: the local sandbox
		// and its console are the contributors' (README, Contributing).
		const { triggerPanel } = new MaintenanceManagementTrigger().description;
		const panel = Object.values(triggerPanel as Record<string, Record<string, string>>).flatMap(
			(texts) => Object.entries(texts).map(([state, text]) => `trigger panel ${state}: ${text}`),
		);
		expect(panel.length).toBeGreaterThanOrEqual(4);
		expect(
			[...all, ...panel].filter((text) =>
				/npm run|local sandbox|sandbox console|clone of the package/i.test(text),
			),
		).toEqual([]);
	});

	it("keeps each node's own description to the same length", () => {
		for (const node of [new MaintenanceManagement(), new MaintenanceManagementTrigger()])
			expect(node.description.description.length).toBeLessThanOrEqual(MAX_LENGTH);
	});

	it('starts every example placeholder of both nodes with "e.g."; a format or n8n\'s email form stays as it is', () => {
		/** Every placeholder of a field (not a collection's "Add …" button), nested ones included. */
		const placeholders = (list: unknown[] = []): string[] =>
			(list as Array<Described & { placeholder?: string }>).flatMap((property) => [
				...(property.placeholder && !['collection', 'fixedCollection'].includes(property.type ?? '')
					? [property.placeholder]
					: []),
				...placeholders(property.options),
				...placeholders(property.values),
			]);
		const all = [
			...placeholders(new MaintenanceManagement().description.properties),
			...placeholders(new MaintenanceManagementTrigger().description.properties),
		];
		expect(all.length).toBeGreaterThan(30);
		expect(
			all.filter(
				(text) => !text.startsWith('e.g. ') && !['HH:mm', 'name@email.com'].includes(text),
			),
		).toEqual([]);
	});
});

describe('the required fields of the action node', () => {
	interface Field extends Described {
		required?: boolean;
		displayOptions?: { show?: { resource?: string[]; operation?: string[] } };
	}

	/** Every required field with no description, as "Resource → operation: Field", nested ones too. */
	const undescribed = (where: string, list: unknown[] = []): string[] =>
		(list as Field[]).flatMap((field) => {
			const show = field.displayOptions?.show;
			const at = show?.resource
				? `${show.resource.join('/')} → ${(show.operation ?? ['any']).join('/')}:`
				: where;
			return [
				...(field.required === true && !field.description?.trim()
					? [`${at} ${field.displayName ?? field.name}`]
					: []),
				...undescribed(`${at} ${field.displayName ?? field.name} →`, field.options),
				...undescribed(`${at} ${field.displayName ?? field.name} →`, field.values),
			];
		});

	it('describes every required field of every operation: what it is and where its value comes from', () => {
		const properties = new MaintenanceManagement().description.properties;
		expect(properties.filter((property) => property.required === true).length).toBeGreaterThan(20);
		expect(undescribed('', properties)).toEqual([]);
	});

	it('says where the value of every required ID field comes from: an operation of the node, or the service', () => {
		const ids = (list: unknown[] = []): Field[] =>
			(list as Field[]).flatMap((field) => [
				...(field.required === true && /\bIDs?$/.test(field.displayName ?? '') ? [field] : []),
				...ids(field.options),
				...ids(field.values),
			]);
		const required = ids(new MaintenanceManagement().description.properties);
		expect(required.length).toBeGreaterThan(10);
		expect(
			required
				.filter((field) => !/ → |in the service/.test(field.description ?? ''))
				.map((field) => field.displayName),
		).toEqual([]);
	});

	it('points only at operations the node has, as "Resource → Operation" (a deprecated one by its name)', () => {
		const operations = new Map(
			(resourceSelector.options as Array<{ name: string; value: string }>).map(
				({ name, value }) => {
					const selector = resources[value].description.find(({ name }) => name === 'operation');
					const names = (selector?.options as Array<{ name: string }>).map(({ name }) =>
						name.replace(/ \(Deprecated\)$/, ''),
					);
					return [name.replace(/ \(Deprecated\)$/, ''), names];
				},
			),
		);
		const pointers = texts('action', new MaintenanceManagement().description.properties).flatMap(
			(text) =>
				[
					...text.matchAll(
						/([A-Z][a-z]+(?: [A-Z][a-z]+)*) → ([A-Z][a-z]+(?: or [A-Z][a-z]+| [A-Z][a-z]+)*)/g,
					),
				]
					.filter(([, resource]) => operations.has(resource))
					.map(([, resource, operation]) => [text, resource, operation] as const),
		);
		expect(pointers.length).toBeGreaterThan(5);
		expect(
			pointers.filter(([, resource, operation]) => !operations.get(resource)!.includes(operation)),
		).toEqual([]);
	});
});
