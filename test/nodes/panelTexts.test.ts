import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';

/** The most characters a description, hint or notice shows in the panel; more goes behind a link. */
const MAX_LENGTH = 200;

interface Described {
	name?: string;
	value?: unknown;
	type?: string;
	displayName?: string;
	description?: string;
	hint?: string;
	options?: unknown[];
	values?: unknown[];
}

/**
 * Every description, hint and notice of a list of properties, nested options and values included,
 * as "where: text", the text as the panel shows it (HTML tags left out).
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
	];

	it(`keeps every description, hint and notice of both nodes and both credentials to ${MAX_LENGTH} characters`, () => {
		expect(all.length).toBeGreaterThan(300);
		const long = all.filter((text) => text.slice(text.indexOf(': ') + 2).length > MAX_LENGTH);
		expect(long).toEqual([]);
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
