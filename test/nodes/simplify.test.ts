import type { OutputChoice } from '../../nodes/shared/simplify';
import { indexIncluded, rawResource, simplifyResource, toItems } from '../../nodes/shared/simplify';
import type { ApiResource } from '../../nodes/MaintenanceManagement/transport';
import { addressedRecord } from '../../nodes/shared/errors/apiError';

const failure: ApiResource = {
	id: '7',
	type: 'failure',
	attributes: { failure_id: 7, code: 'WO-7', status: 'IN_RESOLUTION' },
	meta: { custom_fields: { contract: 'A-12' } },
	relationships: {
		assignees: {
			data: [
				{ type: 'failure_assignee', id: '1' },
				{ type: 'failure_assignee', id: '2' },
			],
		},
		location: { data: { type: 'location', id: '30' } },
		operator: { data: null },
	},
};
const included: ApiResource[] = [
	{ id: '1', type: 'failure_assignee', attributes: { operator_id: 11 } },
	{
		id: '30',
		type: 'location',
		attributes: { name: 'Boiler room' },
		relationships: { building: { data: { type: 'building', id: '1' } } },
	},
	{ id: '1', type: 'building', attributes: { name: 'HQ' } },
];

describe('Simplify', () => {
	it('flattens attributes beside id and type, keeps custom_fields, and resolves relations from included', () => {
		expect(simplifyResource(failure, indexIncluded(included))).toEqual({
			id: '7',
			type: 'failure',
			failure_id: 7,
			code: 'WO-7',
			status: 'IN_RESOLUTION',
			custom_fields: { contract: 'A-12' },
			assignees: [
				{ id: '1', type: 'failure_assignee', operator_id: 11 },
				{ id: '2', type: 'failure_assignee' },
			],
			location: {
				id: '30',
				type: 'location',
				name: 'Boiler room',
				building: { id: '1', type: 'building' },
			},
			operator: null,
		});
	});

	it('puts id and type first, so the table view shows them, and leaves out the internal fts_vector', () => {
		const order: ApiResource = {
			id: '9',
			type: 'failure',
			attributes: { failure_id: 9, fts_vector: 'wo-9 boiler', code: 'WO-9', status: 'PAUSED' },
		};
		const item = simplifyResource(order, new Map());
		expect(Object.keys(item)).toEqual(['id', 'type', 'failure_id', 'code', 'status']);
		expect(item).not.toHaveProperty('fts_vector');
		// The raw record keeps every attribute the API sent.
		expect(toItems([order], undefined, false)[0]).toMatchObject({
			attributes: { fts_vector: 'wo-9 boiler' },
		});
	});

	it('keeps an attribute named type as attribute_type, so the resource type stays in type', () => {
		const work: ApiResource = {
			id: '5',
			type: 'work',
			attributes: { type: 'CYCLIC', name: 'Lifts' },
		};
		expect(simplifyResource(work, new Map())).toEqual({
			id: '5',
			type: 'work',
			attribute_type: 'CYCLIC',
			name: 'Lifts',
		});
	});

	it('puts every meta entry beside the attributes, but never over an attribute of the same name', () => {
		const order: ApiResource = {
			id: '5',
			type: 'buy_order',
			attributes: { code: 'PO-5', cost_centers: 'from the attributes' },
			meta: { custom_fields: null, cost_centers: ['CC-1'] },
		};
		expect(simplifyResource(order, new Map())).toEqual({
			id: '5',
			type: 'buy_order',
			code: 'PO-5',
			cost_centers: 'from the attributes',
			custom_fields: null,
		});
	});

	it('with Simplify off keeps the raw shape and attaches the included records it points to', () => {
		const raw = rawResource(failure, indexIncluded(included));
		expect(raw.attributes).toEqual(failure.attributes);
		expect(raw.relationships).toEqual(failure.relationships);
		expect((raw.included as ApiResource[]).map((r) => `${r.type}:${r.id}`)).toEqual([
			'failure_assignee:1',
			'location:30',
		]);
		const plain: ApiResource = { id: '1', type: 'supplier', attributes: { name: 'ACME' } };
		expect(rawResource(plain, indexIncluded(included))).toBe(plain);
	});

	it('toItems turns a page into one item per resource', () => {
		expect(
			toItems(
				[failure, { id: '8', type: 'failure', attributes: { code: 'WO-8' } }],
				included,
				true,
			).map((i) => i.code),
		).toEqual(['WO-7', 'WO-8']);
	});
});

describe('Simplified and Selected Fields, each field read from the record', () => {
	it('a record without key fields keeps each of its many fields once, those it is known by first', () => {
		const attributes = Object.fromEntries(
			Array.from({ length: 24 }, (_, index) => [`field_${index}`, `value ${index}`]),
		);
		const supplier: ApiResource = {
			id: '3',
			type: 'supplier',
			attributes: { ...attributes, name: 'ACME', supplier_id: 3, empty: '' },
			meta: { name: 'from meta', note: 'kept' },
		};
		const [item] = toItems([supplier], undefined, { mode: 'simplified' });
		expect(Object.keys(item)).toEqual(['id', 'name', ...Object.keys(attributes), 'note']);
		expect(item.name).toBe('ACME');
		expect(item.field_23).toBe('value 23');
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
	});

	it('a relation or meta entry named like a key field is kept once, the relation over the attribute', () => {
		const order: ApiResource = {
			id: '9',
			type: 'failure',
			attributes: { code: 'WO-9', status: 'OPEN', priority: 4 },
			relationships: { status: { data: { type: 'status', id: '2' } } },
			meta: { code: 'from meta', custom_fields: { line: 'A' } },
		};
		expect(toItems([order], undefined, { mode: 'simplified' })).toEqual([
			{
				id: '9',
				code: 'WO-9',
				status: { id: '2', record_type: 'status' },
				priority: 4,
				priority_label: '4 of 4, highest',
				custom_fields: { line: 'A' },
			},
		]);
	});

	it.each([
		['after', { attribute_id: 'own', id: 'renamed' }, 'renamed'],
		['before', { id: 'renamed', attribute_id: 'own' }, 'own'],
	])(
		'an attribute named id %s one named attribute_id: the later one is attribute_id',
		(_label, attributes, expected) => {
			const record: ApiResource = { id: '1', type: 'material', attributes };
			const [item] = toItems([record], undefined, { mode: 'selected', fields: ['attribute_id'] });
			expect(item).toEqual({ id: '1', attribute_id: expected });
		},
	);
});

describe('attributes named like the members of every object', () => {
	const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];
	const supplier: ApiResource = {
		id: '4',
		type: 'supplier',
		attributes: { name: 'ACME', ...Object.fromEntries(NAMES.map((name) => [name, `a ${name}`])) },
		meta: { propertyIsEnumerable: 'from meta', toLocaleString: 'from meta too' },
	};

	it.each<[string, OutputChoice]>([
		['Simplified', { mode: 'simplified' }],
		['Simplify (version 1)', { mode: 'legacy' }],
		['Selected Fields', { mode: 'selected', fields: [...NAMES, 'propertyIsEnumerable'] }],
	])('%s keeps every one of them, as an own field with its value', (_label, output) => {
		const [item] = toItems([supplier], undefined, output);
		for (const name of NAMES) {
			expect(Object.hasOwn(item, name)).toBe(true);
			expect(item[name]).toBe(`a ${name}`);
		}
		expect(item.propertyIsEnumerable).toBe('from meta');
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
	});

	it('a record whose type is such a name is simplified like any type without key fields', () => {
		const odd: ApiResource = { id: '1', type: 'constructor', attributes: { name: 'X' } };
		expect(toItems([odd], undefined, { mode: 'simplified' })).toEqual([{ id: '1', name: 'X' }]);
		const toStringType: ApiResource = { id: '2', type: 'toString', attributes: { code: 'T' } };
		expect(toItems([toStringType], undefined, { mode: 'simplified' })).toEqual([
			{ id: '2', code: 'T' },
		]);
	});
});

describe('the record a path addresses', () => {
	it('is none for a path segment named like a member of every object', () => {
		expect(addressedRecord('/toString/7')).toBeNull();
		expect(addressedRecord('/constructor/7')).toBeNull();
		expect(addressedRecord('/locations/7')).toEqual({
			name: 'Location',
			id: '7',
			list: 'locations',
		});
	});
});
