import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagementApi } from '../../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { operationCases } from '../../cases/operations';
import { expr } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

/*
 * n8n 2.41 runs a regular expression of a node's description (a locator mode's `validation` or
 * `extractValue`, a display condition's `_cnd.regex`) in a vm with a 250 ms wall-clock limit, which
 * a loaded machine exceeds for a trivial pattern: the execution fails with "Regular expression
 * execution timed out". The package keeps every check of its own, in its own code.
 */

/** Every place of a value where n8n would run a regular expression of it, by its path. */
function regexChecks(value: unknown, path: string): string[] {
	if (Array.isArray(value))
		return value.flatMap((item, index) => regexChecks(item, `${path}[${index}]`));
	if (!value || typeof value !== 'object') return [];
	const entries = Object.entries(value as Record<string, unknown>);
	const here =
		(value as { type?: unknown }).type === 'regex' ||
		('_cnd' in value && Object.keys((value as { _cnd: object })._cnd ?? {}).includes('regex'))
			? [path]
			: [];
	return [...here, ...entries.flatMap(([key, item]) => regexChecks(item, `${path}.${key}`))];
}

const DESCRIPTIONS: Array<[string, unknown]> = [
	['MaintenanceManagement', new MaintenanceManagement().description],
	['MaintenanceManagementTrigger', new MaintenanceManagementTrigger().description],
	['MaintenanceManagementApi', new MaintenanceManagementApi().properties],
	['MaintenanceManagementWebhookApi', new MaintenanceManagementWebhookApi().properties],
];

describe("no check of the package runs in n8n's time-limited regular-expression engine", () => {
	it.each(DESCRIPTIONS)(
		'%s has no regex validation, extraction or display condition',
		(name, description) => {
			expect(regexChecks(description, name)).toEqual([]);
		},
	);

	it('finds one where there is one, in a mode, an extraction and a display condition', () => {
		const hostile = {
			modes: [{ name: 'id', validation: [{ type: 'regex', properties: { regex: '\\d+' } }] }],
			url: { extractValue: { type: 'regex', regex: '(\\d+)' } },
			displayOptions: { show: { name: [{ _cnd: { regex: 'a' } }] } },
		};
		expect(regexChecks(hostile, 'p')).toEqual([
			'p.modes[0].validation[0]',
			'p.url.extractValue',
			'p.displayOptions.show.name[0]',
		]);
	});
});

const { properties } = new MaintenanceManagement().description;
/** Every record locator of the action node, with the operation that shows it. */
const LOCATORS = properties
	.filter((property): property is INodeProperties => property.type === 'resourceLocator')
	.map((property) => {
		const show = property.displayOptions?.show ?? {};
		const [resource] = show.resource as string[];
		const [operation] = show.operation as string[];
		return { property, resource, operation };
	});

const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

const unused = async () => await Promise.reject(new Error('not used'));
const CASES = operationCases(unused, unused);

describe("each record locator's By ID mode is checked by the node itself", () => {
	it('covers the four locators, each with an ID mode that has no validation of n8n', () => {
		expect(
			LOCATORS.map(
				({ resource, operation, property }) => `${resource} ${operation} ${property.name}`,
			),
		).toEqual([
			'location get id',
			'location updateMany id',
			'supplier update supplier',
			'buyOrder update buyOrderId',
		]);
		for (const { property } of LOCATORS) {
			const byId = property.modes?.find((mode) => mode.name === 'id');
			expect(byId).toMatchObject({ type: 'string', placeholder: 'e.g. 42' });
			expect(byId?.hint).toMatch(/whole-number ID/);
			expect(byId?.validation).toBeUndefined();
		}
	});

	const NOT_WHOLE_NUMBERS = ['R3', '4.5', '12abc', '-3', '1e3', '0x1F', '3 4', expr('R3')];

	describe.each(LOCATORS)('$resource $operation', ({ property, resource, operation }) => {
		const testCase = CASES.find((c) => c.resource === resource && c.operation === operation)!;
		const byId = (value: string) => ({
			resource,
			operation,
			...testCase.parameters,
			[property.name]: { __rl: true, mode: 'id', value },
		});
		const field = property.displayName;

		it.each(NOT_WHOLE_NUMBERS)('refuses %p naming the field, and sends nothing', async (value) => {
			const { error, requests } = await fixture.run(byId(value));
			expect(requests).toEqual([]);
			// A path's ID (Get, Update) or the ID in the body (Update Many, which sends many at once).
			expect(error?.message).toMatch(
				new RegExp(
					`(^"${field}"|^Invalid input in item 0: "id" \\(${field}\\)) must be a whole[ -]number`,
				),
			);
			expect(error?.description).toMatch(
				new RegExp(
					`(Enter the ID in "${field}"|Fix the field\\(s\\) above)[^]*No request was sent`,
				),
			);
		});

		it('sends a whole-number ID typed in By ID', async () => {
			const { value } = testCase.parameters[property.name] as { value: string };
			const { error, requests } = await fixture.run(byId(value));
			expect(error).toBeUndefined();
			expect(requests.map((request) => request.method)).toEqual([testCase.request.method]);
		});
	});
});
