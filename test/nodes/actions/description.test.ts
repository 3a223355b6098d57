import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { resources } from '../../../nodes/MaintenanceManagement/actions/resources';

const { properties } = new MaintenanceManagement().description;

/** Every property of the node, collections and their options included. */
const walk = (list: INodeProperties[]): INodeProperties[] =>
	list.flatMap((property) => [
		property,
		...(property.type === 'collection' ? walk(property.options as INodeProperties[]) : []),
	]);

/** n8n's lint rules order the items of a collection by display name, and options by name. */
const sortedBy = <T>(list: T[], key: (item: T) => string): T[] =>
	[...list].sort((a, b) => key(a).localeCompare(key(b)));

describe('the action node description', () => {
	// Additional Fields and Update Fields are built by shared helpers, where the lint rules cannot see
	// the order of their options.
	const collections = walk(properties).filter(
		(property) => property.name === 'additionalFields' || property.name === 'updateFields',
	);

	it('lists the options of every Additional Fields and Update Fields by display name', () => {
		// One per operation that has one, as the registry's operations declare them.
		const declared = Object.values(resources)
			.flatMap((resource) => Object.values(resource.operations))
			.flatMap((operation) => walk(operation.description))
			.filter(
				(property) => property.name === 'additionalFields' || property.name === 'updateFields',
			);
		expect(declared.length).toBeGreaterThan(0);
		expect(collections).toHaveLength(declared.length);
		for (const { options } of collections) {
			const names = (options as INodeProperties[]).map((option) => option.displayName);
			// Material's options are merged and sorted in code, by plain comparison ("SKU" before "Sale").
			const plain = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
			expect([sortedBy(names, (name) => name), plain]).toContainEqual(names);
		}
	});

	it("lists each resource's operations by name", () => {
		const selectors = properties.filter((property) => property.name === 'operation');
		expect(selectors).toHaveLength(Object.keys(resources).length);
		for (const { options } of selectors) {
			const names = (options as Array<{ name: string }>).map((option) => option.name);
			expect(names).toEqual(sortedBy(names, (name) => name));
		}
	});

	it("lists the resources in users' words, work orders first and the deprecated ones last", () => {
		const selector = properties.find((property) => property.name === 'resource')!;
		const options = selector.options as Array<{ name: string; description?: string }>;
		const names = options.map((option) => option.name);
		expect(names[0]).toBe('Work Order');
		expect(selector.default).toBe('failure');
		const deprecated = names.filter((name) => name.endsWith('(Deprecated)'));
		expect(deprecated.length).toBeGreaterThan(0);
		expect(names.slice(-deprecated.length)).toEqual(deprecated);
		// The API's own names go in the hint, not in the label.
		for (const name of names) expect(name).not.toMatch(/\((?!Deprecated)/);
		expect(options.find((option) => option.name === 'Work Order')?.description).toMatch(/failure/);
		expect(options.find((option) => option.name === 'Planned Job')?.description).toMatch(/work/);
	});

	/** The canvas subtitle as n8n shows it for the given parameters (its expression run as JavaScript). */
	const subtitleFor = (parameter: Record<string, string>): string => {
		const expression = String(new MaintenanceManagement().description.subtitle);
		const body = expression.replace(/^=\{\{/, '').replace(/\}\}$/, '');
		return (new Function('$parameter', `return ${body}`) as (p: object) => string)(parameter);
	};

	it('names the operation and the resource on the canvas as the selectors do', () => {
		// n8n ends an expression at its first "}}": none may come before the end.
		const expression = String(new MaintenanceManagement().description.subtitle);
		expect(expression.slice(0, -2)).not.toContain('}}');
		expect(subtitleFor({ resource: 'failure', operation: 'getAllOpen' })).toBe(
			'Get Many Open: Work Order',
		);
		expect(subtitleFor({ resource: 'work', operation: 'create' })).toBe('Create: Planned Job');
		// Every pair of the node reads in labels, never in values.
		for (const [resource, module] of Object.entries(resources))
			for (const operation of Object.keys(module.operations))
				expect(subtitleFor({ resource, operation })).not.toMatch(
					new RegExp(`\\b(${resource}|${operation})\\b`),
				);
		// A value the node does not know (a newer workflow, say) is shown as it is.
		expect(subtitleFor({ resource: 'gadget', operation: 'zap' })).toBe('zap: gadget');
	});

	it('starts no ID field at 0, which no record has: each starts empty and shows the form it expects', () => {
		/** Every property, inside collections and the groups of fixed collections too. */
		const all = (list: unknown[]): INodeProperties[] =>
			(list as Array<INodeProperties & { values?: INodeProperties[] }>).flatMap((property) => [
				...(property.type === undefined ? [] : [property]),
				...(property.values ? all(property.values) : []),
				...(Array.isArray(property.options) ? all(property.options) : []),
			]);
		const idFields = all(properties).filter(
			(property) =>
				/(^|_)id$/.test(property.name) &&
				!['resourceLocator', 'options', 'multiOptions', 'boolean'].includes(property.type),
		);
		expect(idFields.length).toBeGreaterThan(20);
		for (const field of idFields) {
			expect([field.name, field.default]).toEqual([field.name, '']);
			expect([field.name, field.placeholder]).toEqual([
				field.name,
				expect.stringMatching(/^e\.g\. /),
			]);
		}
	});

	it('offers each Request Option only where it applies: Max Pages with Return All alone', () => {
		const description = new MaintenanceManagement().description;
		const requestOptions = properties.find((property) => property.name === 'requestOptions')!;
		/** The Request Options the editor offers for the given parameters, by display name. */
		const offered = (parameters: INodeParameters, typeVersion = 2) => {
			const node = { typeVersion };
			const values = NodeHelpers.getNodeParameters(
				properties,
				parameters,
				true,
				false,
				node,
				description,
			)!;
			return (requestOptions.options as INodeProperties[])
				.filter((option) => NodeHelpers.displayParameter(values, option, node, description, values))
				.map((option) => option.displayName);
		};
		const always = [
			'Max Attempts on Rate Limit',
			'Max Total Wait (Seconds)',
			'Max Wait per Request (Seconds)',
			'Timeout (Seconds)',
		];
		for (const [resource, module] of Object.entries(resources))
			for (const [operation, { endpoint }] of Object.entries(module.operations)) {
				const name = `${resource} ${operation}`;
				expect([name, offered({ resource, operation })]).toEqual([name, always]);
				expect([name, offered({ resource, operation, returnAll: true })]).toEqual([
					name,
					endpoint.answers === 'page'
						? [...always.slice(0, 1), 'Max Pages', ...always.slice(1)]
						: always,
				]);
			}
	});
});
