import type { INode } from 'n8n-workflow';
import { z, type ZodTypeAny } from 'zod/v3';

import { filterField, pathIdField, queryParameterField } from '../../nodes/shared/empty';
import * as words from '../../nodes/shared/errors/messages';
import { refusal } from '../../nodes/shared/errors/nodeError';
import * as schemas from '../../nodes/shared/schemas';
import { validate } from '../../nodes/shared/schemas';
import { create as createLegacyMaterial } from '../../nodes/MaintenanceManagement/actions/legacyMaterial/create.operation';
import { nullableText } from '../../nodes/shared/fields';
import { checkLineType } from '../../nodes/shared/lineRules';
import { workSchema } from '../../nodes/MaintenanceManagement/actions/work/workSchema';
import { dateValue, oneOfList } from '../../nodes/MaintenanceManagement/actions/failure/filters';

const NODE: INode = {
	id: 'node',
	name: 'Maintenance Management',
	type: 'n8n-nodes-maintenance-management.maintenanceManagement',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};

/**
 * The one place each message's words are read. Every other test checks which builder an error came
 * from (its message and description equal the builder's), the item and the field it names.
 */

const NO_REQUEST = /No request was sent/;

describe('the words of the node', () => {
	it('ask for field names when Selected Fields names none', () => {
		expect(words.noSelectedFields()).toEqual({
			message:
				'"Fields" is empty: name the fields to output, separated by commas (for example "status, description"), or choose another Output. No request was sent.',
		});
	});

	it('name the resource and operation the node does not have', () => {
		expect(words.unsupportedOperation('location', 'explode').message).toBe(
			'The operation "explode" of "location" is not supported',
		);
	});

	it('name an unusable path ID and how to enter it', () => {
		expect(words.unusablePathId('Quote ID', 'must be a whole-number ID')).toEqual({
			message: '"Quote ID" must be a whole-number ID',
			description: 'Enter the ID in "Quote ID" as the API gives it. No request was sent.',
		});
	});

	it('name both ways a field was set, and which to remove', () => {
		expect(words.fieldsAndJson('interventions', 'interventions_json')).toEqual({
			message: 'Set "interventions" either with its fields or as JSON, not both',
			description:
				'Remove "interventions" or "interventions_json" from the parameters. No request was sent.',
		});
	});

	it("name JSON that does not parse, with the parser's reason as plain text", () => {
		expect(words.invalidJson('sla_rules_json', 'Unexpected token <b> in JSON')).toEqual({
			message: '"sla_rules_json" is not valid JSON',
			description:
				'Fix the JSON in "sla_rules_json" (Unexpected token &lt;b&gt; in JSON). No request was sent.',
		});
	});

	it('name an empty value, what gave it, the fix and the item', () => {
		expect(words.emptyValue('"Quote ID"', 'it has no value', 'Enter the ID.', 3)).toEqual({
			message: '"Quote ID" is empty: it has no value',
			description: 'Enter the ID. No request was sent for item 3.',
		});
	});

	it('give the first input problem and the count of the others, all of them one a line', () => {
		const { message, description } = words.invalidInput(1, ['"a" is wrong', '"b" is wrong']);
		expect(message).toBe('Invalid input in item 1: "a" is wrong (and 1 more problem(s))');
		expect(description?.split('<br>')).toEqual([
			'"a" is wrong',
			'"b" is wrong',
			'Fix the field(s) above and run again. No request was sent for this item.',
		]);
		expect(words.invalidInput(0, ['"a" is wrong']).message).toBe(
			'Invalid input in item 0: "a" is wrong',
		);
	});

	it.each([
		['POST', 'It may have been written: check whether it exists before sending it again.'],
		[
			'PATCH',
			'The change may have been applied: check whether it is there before sending it again.',
		],
	])('say that an unconfirmed %s item may have been written', (method, advice) => {
		expect(words.notConfirmed(2, method)).toEqual({
			message: `Item 2 was sent but not confirmed by the API. ${advice}`,
			description:
				"The request succeeded, but the API's answer leaves out this item's record, so whether it was written is unknown.",
		});
	});

	it('name both items that update one location, and how to merge them', () => {
		const { message, description } = words.locationUpdatedTwice(2, '17', 0);
		expect(message).toBe('Item 2 updates location 17, which item 0 already updates');
		expect(description).toMatch(/^Update Many changes each location once\. Merge the fields/);
		expect(description).toMatch(NO_REQUEST);
	});

	it('name the item that cannot join a combined batch, and why', () => {
		const { message, description } = words.cannotJoinBatch(1, 'its Action is OUT');
		expect(message).toBe('Item 1 cannot join the combined batch: its Action is OUT');
		expect(description).toMatch(/one warehouse, one action and one batch observation/);
		expect(description).toMatch(/turn off "One Batch for All Items"/);
		expect(description).toMatch(NO_REQUEST);
	});

	it('become an error of the node with the item and the fields, and no description when they have none', () => {
		const error = refusal(NODE, words.unusablePathId('ID', 'is empty'), {
			itemIndex: 4,
			fields: ['id'],
		});
		expect(error.message).toBe('"ID" is empty');
		expect(error.description).toBe(words.unusablePathId('ID', 'is empty').description);
		expect(error.context).toMatchObject({ itemIndex: 4, fields: ['id'] });
		expect(refusal(NODE, words.noSelectedFields()).description).toBeFalsy();
	});
});

describe("the words of a field's problem", () => {
	/** The message of the refusal of `value` by `schema`, for a field "f" shown as "F". */
	const refused = (schema: ZodTypeAny, value: unknown): string | undefined => {
		try {
			validate(z.object({ f: schema }), { f: value }, NODE, 0, new Map([['f', 'F']]));
		} catch (error) {
			return (error as Error).message;
		}
		return undefined;
	};

	it.each<[string, ZodTypeAny, unknown, string]>([
		['an ID that is not a whole number', schemas.id(), 'abc', 'must be a whole number (an ID)'],
		['an ID below 1', schemas.id(), 0, 'must be a positive ID'],
		['a missing ID', schemas.id(), undefined, 'is required'],
		['a number that is not one', schemas.number(), 'ten', 'must be a number'],
		['a whole number with a fraction', schemas.integer(), 1.5, 'must be a whole number'],
		[
			'a numeric text that is not a number',
			schemas.numericString(),
			'1,5',
			'must be a number, such as 2 or 1.5',
		],
		['a text of spaces', schemas.text(), '   ', 'must not be empty'],
		[
			'a value outside the list',
			schemas.oneOf(['North', 'South']),
			'Up',
			'must be one of North, South',
		],
		['a time that is not HH:mm', schemas.hhmm(), '8h', 'must be a time as HH:mm, such as 08:30'],
		[
			'an ID list that is no list',
			schemas.idList(),
			true,
			'must list IDs separated by commas, such as 12, 15',
		],
		['a clearable text that is no text', nullableText(), 12, 'must be text, or null to clear it'],
		['a list with a value outside it', oneOfList(['A', 'B']), 'A,C', 'must list values among A, B'],
		[
			'a filter date that is no date',
			dateValue(),
			'yesterday',
			'must be a date, such as 2026-05-01 or 2026-05-01T08:00:00',
		],
	])('name the field, its display name and the rule, for %s', (_label, schema, value, rule) => {
		expect(refused(schema, value)).toBe(`Invalid input in item 0: "f" (F) ${rule}`);
	});

	it('name the fields a legacy MATERIAL needs, and where to set them', () => {
		const result = createLegacyMaterial.endpoint.body!.schema().safeParse({
			_type: 'MATERIAL',
			name: 'Bolt',
			code: 'B-1',
		});
		expect(result.error?.issues.map(({ path, message }) => [path, message])).toEqual([
			[['units'], 'is required for a MATERIAL: set Units under Additional Fields'],
			[['parent_id'], 'is required for a MATERIAL: set Parent ID under Additional Fields'],
		]);
	});

	it("name the rules that tie a Planned Job's fields, and the fix of each", () => {
		const issues = (work: Record<string, unknown>) =>
			workSchema()
				.safeParse({ name: 'Job', work_type_id: 1, local_id: '1', client_id: 1, ...work })
				.error?.issues.map(({ path, message }) => [path.join('.'), message]);
		expect(
			issues({
				type: 'SPECIAL',
				any_responsible: false,
				auto_close: true,
				auto_pilot: false,
				interventions: [],
			}),
		).toEqual([
			[
				'operator_id',
				'is required when Any Responsible is off: set Operator IDs or Technical Skill IDs',
			],
			['auto_close', 'applies only to CYCLIC and PLAN jobs: remove Auto Close'],
			['auto_pilot', 'applies only to CYCLIC and PLAN jobs: remove Auto Pilot'],
			['interventions', 'applies only to CYCLIC and PLAN jobs: remove Interventions'],
		]);
		expect(
			issues({
				type: 'CYCLIC',
				procedures: [{ task: 'Check' }],
				recurrence: { FREQ: 'HOURLY', DTSTART: '2026-05-01 08:00:00', UNTIL: '2026-04-30' },
			}),
		).toEqual([
			[
				'interventions',
				'is required for a CYCLIC job: add at least one intervention under Interventions (or in Additional Fields → Interventions (JSON))',
			],
			['procedures', 'applies only to SPECIAL jobs: remove Procedures'],
			['calendar_id', 'is required for a CYCLIC job repeating HOURLY: set Calendar ID'],
			[
				'recurrence.INTERVAL',
				'is required for a CYCLIC job repeating HOURLY: set Interval (0 or more)',
			],
			['recurrence.UNTIL', 'must not be before the start (DTSTART)'],
		]);
		expect(
			issues({
				type: 'SPECIAL',
				local_id: ' , ',
				recurrence: { DTSTART: 'next monday', INTERVAL: -1 },
				auto_schedule: [{ start_time: '08:00', end_time: '17:00', operators: '' }],
				sla_rules: [{ specify_pause_reason: true, pause_reasons: [] }],
			}),
		).toEqual([
			['local_id', 'needs at least one location ID'],
			['auto_schedule.0.operators', 'needs at least one operator ID'],
			['recurrence.DTSTART', 'must be a date and time, such as 2026-05-01T08:00:00'],
			['recurrence.INTERVAL', 'must be 0 or more'],
			[
				'sla_rules.0.pause_reasons',
				'needs at least one pause reason when Specify Pause Reason is on',
			],
		]);
	});

	it('name the field a line of its type needs, and where to set it', () => {
		const line = z
			.object({ type: z.string(), description: z.string().optional() })
			.superRefine(checkLineType);
		expect(refused(line, { type: 'SERVICE' })).toBe(
			'Invalid input in item 0: "f.description" is required when type is SERVICE: set Description under Additional Fields',
		);
	});
});

describe('the words of an empty field', () => {
	it('name a filter by its display and API names, and how to remove it', () => {
		const field = { name: 's_local_id', displayName: 'Location ID', collection: 'Filters' };
		expect(filterField({ ...field, path: 'filters.s_local_id' })).toEqual({
			label: '"Location ID" (s_local_id)',
			field: 'filters.s_local_id',
			fix: 'Set a value for "Location ID", or remove it from Filters: an empty filter is never left out, as that would widen the list to every record.',
		});
	});

	it('name a query parameter by its position or its name', () => {
		expect(queryParameterField(0, '', 'name')).toMatchObject({
			label: 'The name of query parameter 1',
			fix: "Enter the name of the service's filter, or remove the parameter under Options → Query Parameters.",
		});
		expect(queryParameterField(1, ' <b>sort</b> ', 'value')).toMatchObject({
			label: 'Query parameter "&lt;b&gt;sort&lt;/b&gt;"',
			fix: expect.stringMatching(
				/^Set its value, or remove the parameter under Options → Query Parameters: an empty filter is never left out/,
			),
		});
	});

	it('ask to pick a record from the list, or to enter a plain ID', () => {
		expect(pathIdField('Location', { __rl: true, mode: 'id', value: '' }, 'id').fix).toBe(
			'Pick "Location" from the list or enter its ID; in an expression, map a field that holds the ID.',
		);
		expect(pathIdField('Quote ID', '', 'quoteId').fix).toBe(
			'Enter the ID in "Quote ID"; in an expression, map a field that holds the ID.',
		);
	});
});

describe('the words of the credential', () => {
	it('ask for the token where it is entered', () => {
		expect(words.tokenMissing()).toEqual({
			message: 'The access token is missing',
			description:
				'Enter the personal access token in the "Maintenance Management API" credential. No request was sent.',
		});
	});

	it('ask for the token on one line', () => {
		const { message, description } = words.tokenNotOneText();
		expect(message).toBe('The access token contains a space or line break');
		expect(description).toMatch(
			/Paste the token again in the "Maintenance Management API" credential, on one line/,
		);
		expect(description).toMatch(NO_REQUEST);
	});

	it('name the base URL, its problem and the form it must take', () => {
		expect(words.unusableBaseUrl('Sandbox Base URL', 'must end with /v3')).toEqual({
			message: "The credential's Sandbox Base URL must end with /v3",
			description:
				'Set "Sandbox Base URL" in the credential to the address of the API: https://, the host, and the path ending with /v3 (for example https://api.example.com/v3). No request was sent.',
		});
	});
});
