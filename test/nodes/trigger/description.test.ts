import { MaintenanceManagementWebhookApi } from '../../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { EVENTS } from '../../../nodes/MaintenanceManagementTrigger/events';
import { specEventNames } from '../../helpers/contract';
import { nodeParameters } from './harness';

const { description } = new MaintenanceManagementTrigger();
const property = (name: string) => description.properties.find((p) => p.name === name)!;

const SPEC_EVENTS = specEventNames();

describe('trigger description', () => {
	it('is a trigger named as the lint rules and n8n expect', () => {
		expect(description.name).toBe('maintenanceManagementTrigger');
		expect(description.displayName).toBe('Maintenance Management Trigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.outputs).toEqual(['main']);
	});

	it('offers version 2 to new nodes and keeps version 1 valid', () => {
		// n8n evaluates an extra expression before each delivery to a version-1 webhook node.
		expect(description.version).toEqual([1, 2]);
	});

	it('offers exactly the events of the spec plus All Events, named for people and described by their trigger text', () => {
		const options = property('events').options as Array<{
			name: string;
			value: string;
			description: string;
		}>;
		expect(EVENTS.map((e) => e.value).sort()).toEqual([...SPEC_EVENTS].sort());
		expect(options.map((o) => o.value).sort()).toEqual(['*', ...SPEC_EVENTS].sort());
		expect(options.find((o) => o.value === '*')?.name).toBe('All Events');
		for (const event of EVENTS) {
			const option = options.find((o) => o.value === event.value)!;
			expect(option.name).toBe(event.name);
			expect(option.name).not.toMatch(/_/);
			expect(option.description).toContain(event.description);
		}
		expect(new Set(options.map((o) => o.name)).size).toBe(options.length);
		expect(options.find((o) => o.value === 'FAILURE_CREATED')?.name).toBe(
			'Work Order Created or Waiting for Approval',
		);
	});

	it("the canvas subtitle names the chosen events without their list's search words", () => {
		const expression = String(description.subtitle).replace(/^={{/, '').replace(/}}$/, '');
		const subtitle = (events: string[]) =>
			(new Function('$parameter', `return ${expression}`) as (p: object) => string)({ events });
		expect(subtitle(['FAILURE_CREATED', 'FAILURE_APPROVED', 'FAILURE_NOT_APPROVED'])).toBe(
			'Work Order Created or Waiting for Approval, Work Order Approved +1 more',
		);
		expect(subtitle(['FAILURE_NOT_APPROVED'])).toBe('Work Order Not Approved');
		expect(subtitle(['*'])).toBe('All events');
	});

	it('defaults to All Events and to the query-parameter secret', () => {
		const parameters = nodeParameters({});
		expect(parameters.events).toEqual(['*']);
		expect(parameters.authentication).toBe('query');
		expect(parameters.parameterName).toBe('token');
		expect(nodeParameters({ authentication: 'header' }).parameterName).toBe('X-Webhook-Secret');
	});

	it('listens on one path for both POST and PATCH, answering on receipt with its own body', () => {
		expect(
			description.webhooks?.map((w) => [
				w.name,
				w.httpMethod,
				w.path,
				w.responseMode,
				w.responseData,
			]),
		).toEqual([
			['default', 'POST', 'webhook', 'onReceived', ''],
			['default', 'PATCH', 'webhook', 'onReceived', ''],
		]);
	});

	/** The texts the editor shows around the trigger: its notice and its trigger panel. */
	const notice = description.properties[0];
	const panel = description.triggerPanel as {
		header: string;
		executionsHelp: { active: string; inactive: string };
		activationHint: { active: string; inactive: string };
	};
	it('says in its notice what to register in the service, with the secret', () => {
		expect(notice.type).toBe('notice');
		const text = notice.displayName;
		expect(text).toMatch(
			/service's webhook settings, for POST or PATCH, with the secret as Protection says/,
		);
	});

	it('explains in the trigger panel how a test event and then real events get here, before and after publishing', () => {
		expect(panel.executionsHelp.inactive).toMatch(
			/click 'Execute step', then register the <b>Test URL<\/b>/,
		);
		expect(panel.executionsHelp.inactive).toMatch(
			/publish the workflow and register its <b>Production URL<\/b>/,
		);
		expect(panel.executionsHelp.active).toMatch(/Executions/);
		for (const text of [panel.executionsHelp.inactive, panel.executionsHelp.active]) {
			expect(text).toMatch(/service's webhook settings/);
		}
		expect(panel.activationHint.inactive).toMatch(
			/register the Test URL in the service's webhook settings with the secret/,
		);
		expect(panel.activationHint.active).toMatch(/Executions/);
	});

	it('never sends someone in the editor to the README, which the editor cannot show', () => {
		const texts = [
			notice.displayName,
			JSON.stringify(panel),
			...description.properties.map((p) => p.description ?? ''),
		];
		for (const text of texts) expect(text).not.toMatch(/README/i);
	});

	it('keeps the secret in a credential, shown only when a protection needs it', () => {
		expect(description.credentials).toEqual([
			expect.objectContaining({
				name: 'maintenanceManagementWebhookApi',
				required: true,
				displayOptions: { show: { authentication: ['query', 'header', 'basicAuth'] } },
			}),
		]);
		const credential = new MaintenanceManagementWebhookApi();
		expect(credential.name).toBe('maintenanceManagementWebhookApi');
		const secret = credential.properties.find((p) => p.name === 'secret')!;
		expect(secret.typeOptions?.password).toBe(true);
		expect(secret.required).toBe(true);
		expect(JSON.stringify(description.properties)).not.toMatch(/"name":"secret"/);
	});

	it('tests the credential by asking for a long secret, without echoing it', async () => {
		const test = new MaintenanceManagementTrigger().methods.credentialTest.checkWebhookSecret;
		const run = (secret: string) =>
			test.call({} as never, {
				id: '1',
				name: 'x',
				type: 'maintenanceManagementWebhookApi',
				data: { secret },
			});
		const short = await run('short-one');
		expect(short.status).toBe('Error');
		expect(short.message).not.toContain('short-one');
		expect((await run('')).status).toBe('Error');
		const long = await run('whsec_0123456789abcdef');
		expect(long.status).toBe('OK');
		expect(long.message).not.toContain('whsec_0123456789abcdef');
	});
});
