import type { INodeProperties } from 'n8n-workflow';

import { buyOrder } from './buyOrder';
import { client } from './client';
import { contact } from './contact';
import { failure } from './failure';
import { legacyMaterial } from './legacyMaterial';
import { location } from './location';
import { material } from './material';
import { materialType } from './materialType';
import { quoteLine } from './quoteLine';
import { scheduledWork } from './scheduledWork';
import { sellOrderLine } from './sellOrderLine';
import { stockMovement } from './stockMovement';
import { stockTransaction } from './stockTransaction';
import { supplier } from './supplier';
import type { OperationModule, ResourceModule } from '../../shared/types';
import { work } from './work';

/**
 * In the order of the Resource selector: work orders, the resource users reach for most, first; then
 * planned work, places and parties, purchasing and stock; the deprecated ones last.
 */
const all = [
	failure,
	work,
	scheduledWork,
	location,
	client,
	supplier,
	buyOrder,
	sellOrderLine,
	quoteLine,
	material,
	materialType,
	stockTransaction,
	contact,
	legacyMaterial,
	stockMovement,
] as const;

type Resource = (typeof all)[number];

/** The values of the Resource selector, as a type: a name outside it does not compile. */
export type ResourceName = Resource['value'];

/** The values of a resource's Operation selector, as a type: a wrong pair does not compile. */
export type OperationName<R extends ResourceName> = keyof Extract<
	Resource,
	{ value: R }
>['operations'] &
	string;

/** Every resource of the node, keyed by the value of the Resource selector. */
export const resources: Record<string, ResourceModule> = Object.fromEntries(
	all.map((resource) => [resource.value, resource]),
);

/** The Resource selector, its options in the order above. */
export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: all.map(({ displayName, hint, builderHint, value }) => ({
		name: displayName,
		value,
		...(hint ? { description: hint } : {}),
		...(builderHint ? { builderHint: { propertyHint: builderHint } } : {}),
	})),
	default: 'failure',
};

/**
 * Shown for every write (POST or PATCH): what n8n's node setting Retry On Fail does with one here
 * (itemLoop.ts). The write operations' values are no read's value, so they alone show it.
 */
export const retryOnFailNotice: INodeProperties = {
	displayName:
		'Settings → Retry On Fail: a retry sends no row the API already answered (written, refused, or may have been written); those rows keep the output of the first try.',
	name: 'retryOnFailNotice',
	type: 'notice',
	default: '',
	displayOptions: {
		show: {
			operation: [
				...new Set(
					all.flatMap(({ operations }) =>
						Object.entries<OperationModule>(operations)
							.filter(([, run]) => run.endpoint.method !== 'GET')
							.map(([value]) => value),
					),
				),
			].sort(),
		},
	},
};

/** Each resource's label and its operations' labels, by value: the editor's names for the subtitle. */
const labels = Object.fromEntries(
	all.map(({ value, displayName, description }) => {
		const selector = description.find((property) => property.name === 'operation');
		const operations = (selector?.options ?? []) as Array<{ name: string; value: string }>;
		return [
			value,
			{
				name: displayName,
				operations: Object.fromEntries(operations.map((o) => [o.value, o.name])),
			},
		];
	}),
);

/**
 * The canvas subtitle in the editor's words, "Get Many Open: Work Order", from the same labels as the
 * Resource and Operation selectors; a value they do not know is shown as it is. Each closing brace of
 * the labels is followed by a space: n8n ends an expression at the first "}}".
 */
export const subtitle = `={{ ((labels, resource, operation) => labels[resource] ? (labels[resource].operations[operation] || operation) + ": " + labels[resource].name : operation + ": " + resource)(${JSON.stringify(labels).replace(/\}/g, '} ')}, $parameter["resource"], $parameter["operation"]) }}`;
