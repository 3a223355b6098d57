import type { IDataObject } from 'n8n-workflow';

import type { Display, Parameter, Surface } from '../../scripts/surface';
import type { OperationCase } from './operations';

/**
 * The parameters of workflows saved with a recorded release (surface/<version>.json), as the update
 * test saves them before updating: one node per resource and operation of each type version of the
 * action node, each parameter it shows set to a value other than its default where the sandbox accepts
 * one. The values come from the record: a boolean flipped, another option value, a number one above its
 * default; in a collection, its boolean and option fields so set. The operation's case
 * (test/cases/operations.ts) gives what only the sandbox's data makes valid (IDs, codes, dates, bodies),
 * and ADJUSTED what the generated value cannot be, with the reason.
 */

/** A parameter the generated value does not suit, by `<resource>.<operation>.<path>`, and why. */
const ADJUSTED: Record<string, { value: unknown; why: string }> = {
	'work.create.additionalFields.any_responsible': {
		value: undefined,
		why: 'off, it requires Operator IDs or Technical Skill IDs, which the case does not set',
	},
};

/** The values a parameter is shown by: its `show` conditions hold and no `hide` one does. */
function shown(display: Display | undefined, value: (name: string) => unknown): boolean {
	const holds = (values: unknown[], name: string) => values.includes(value(name));
	return (
		Object.entries(display?.show ?? {}).every(([name, values]) => holds(values, name)) &&
		!Object.entries(display?.hide ?? {}).some(([name, values]) => holds(values, name))
	);
}

/** A value other than the default, for the types where one is known to be valid without data. */
function generated(parameter: Parameter): unknown {
	if (parameter.type === 'boolean') return !parameter.default;
	if (parameter.type === 'options')
		return parameter.values?.find((value) => value !== parameter.default);
	if (parameter.type === 'number' && typeof parameter.default === 'number')
		return parameter.default + 1;
	return undefined;
}

/** The parameters of `list` shown with `given`, each set as above, nested through collections. */
export function fill(
	list: Parameter[],
	given: IDataObject,
	key: string,
	topLevel = true,
): IDataObject {
	const values: IDataObject = { ...given };
	const valueOf = (name: string) =>
		name in values
			? values[name]
			: list.find(
					(parameter) => parameter.name === name && shown(parameter.displayOptions, valueOf),
				)?.default;
	// A value set can show more parameters (Return All hides Limit, an Output shows Fields): repeat
	// until nothing more is shown.
	for (let changed = true; changed;) {
		changed = false;
		for (const parameter of list) {
			if (parameter.name in values || !shown(parameter.displayOptions, valueOf)) continue;
			const path = `${key}.${parameter.name}`;
			let value =
				path in ADJUSTED
					? ADJUSTED[path].value
					: parameter.type === 'collection'
						? fill(parameter.fields ?? [], {}, path, false)
						: generated(parameter);
			if (parameter.type === 'collection' && !Object.keys(value as IDataObject).length)
				value = undefined;
			if (value === undefined || (!topLevel && parameter.type === 'number')) continue;
			values[parameter.name] = value;
			changed = true;
		}
	}
	// A collection the case fills gets the generated fields too, the case's winning.
	for (const parameter of list)
		if (
			parameter.type === 'collection' &&
			parameter.name in given &&
			shown(parameter.displayOptions, valueOf)
		)
			values[parameter.name] = {
				...fill(parameter.fields ?? [], {}, `${key}.${parameter.name}`, false),
				...(given[parameter.name] as IDataObject),
			};
	return values;
}

/** A recorded node by its name without the package's. */
export const nodeOf = (surface: Surface, name: string) =>
	surface.nodes[`${surface.package}.${name}`];

export interface SavedNode {
	/** "v<type version> <resource> <operation>" */
	name: string;
	typeVersion: number;
	parameters: IDataObject;
}

/**
 * One node per type version and operation of the recorded action node: the resource and operation,
 * the case's parameters, and every other parameter shown set as above.
 */
export function savedNodes(surface: Surface, cases: OperationCase[]): SavedNode[] {
	return Object.entries(nodeOf(surface, 'maintenanceManagement').versions).flatMap(
		([version, { parameters }]) =>
			cases
				.filter(({ resource, operation }) =>
					parameters.some(
						(parameter) =>
							parameter.name === 'operation' &&
							parameter.values?.includes(operation) &&
							parameter.displayOptions?.show?.resource?.includes(resource),
					),
				)
				.map(({ resource, operation, parameters: accepted }) => ({
					name: `v${version} ${resource} ${operation}`,
					typeVersion: Number(version),
					parameters: fill(
						parameters,
						{ resource, operation, ...accepted },
						`${resource}.${operation}`,
						true,
					),
				})),
	);
}
