import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { firstQuery } from '../../helpers/sent';
import { firstPageQuery } from '../../helpers/paging';
import { everyPageWithQuery, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('scheduledWork');

/** The relations the spec lists for Scheduled Work, in its order. */
const SPEC_RELATIONS = [
	'auditStats',
	'buyOrders',
	'client',
	'completedBy',
	'pausedBy',
	'startedBy',
	'realStartDateEditedBy',
	'completeDateEditedBy',
	'elementRegistries',
	'entity',
	'events',
	'eventsPlanned',
	'files',
	'gatekeeperAnswerRegistries',
	'networkStatus',
	'otherCosts',
	'participants',
	'reminderRules',
	'reminders',
	'requests',
	'scheduledWorkSlas',
	'stock',
	'stockTasks',
	'survey',
	'surveyFeedbacks',
	'work',
	'failureScheduleMapping',
	'pause_reason',
	'assignees',
];

/**
 * Seeded planned job orders (40 by default): order i is in state
 * ['SCHEDULED', 'RUNNING', 'PAUSED', 'COMPLETED', 'CANCELED', 'ARCHIVED', 'COMPLETED_CANCELED'][i % 7],
 * belongs to planned job i, client 1, and has operator (i % 10) + 1 as participant.
 */
const getAll = fixture.operation('getAll');

describe('Planned Job Order (Scheduled Work): the UI', () => {
	it('offers Get Many with its action label', () => {
		fixture.expectOperations([
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many planned job orders',
			},
		]);
	});

	it('offers every relation the spec lists, and no other, sorted by name', () => {
		const expanded = node.description.properties.find(
			(p) => p.name === 'expanded' && p.displayOptions?.show?.resource?.includes('scheduledWork'),
		);
		const options = (expanded?.options ?? []) as Array<{ name: string; value: string }>;
		expect(options.map((o) => o.value).sort()).toEqual([...SPEC_RELATIONS].sort());
		expect(options.map((o) => o.name)).toEqual(options.map((o) => o.name).sort());
		expect(expanded?.type).toBe('multiOptions');
	});
});

describe('Planned Job Order (Scheduled Work): Get Many', () => {
	it('sends GET /works/scheduled with page and the default limit of 50, one simplified item per order', async () => {
		const output = await fixture.expectFirstPage(await getAll(), '/works/scheduled', 40);
		output.forEach((item, index) => {
			expect(item.json).toMatchObject({
				id: String(index + 1),
				type: 'scheduled_work',
				schedule_work_id: index + 1,
			});
		});
		expect(output[0].json).toMatchObject({ state: 'RUNNING', work_id: 1, visit: 1, running: true });
		expect(output[0].json).not.toHaveProperty('work');
	});

	it('asks for every relation in expanded and resolves each under its name', async () => {
		const { output, error } = await getAll({ limit: 2, expanded: SPEC_RELATIONS });
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.query.page).toBe('1');
		expect(logged.query.limit).toBe('2');
		expect(logged.query.expanded.split(',')).toEqual(SPEC_RELATIONS);
		expect(output).toHaveLength(2);
		const first = output[0].json;
		for (const relation of SPEC_RELATIONS) expect(first).toHaveProperty(relation);
		expect(first.work).toMatchObject({ id: '1', type: 'work', name: 'Planned job 1' });
		expect(first.client).toMatchObject({ id: '1', type: 'client', name: 'Client 1' });
		expect(first.participants).toEqual([expect.objectContaining({ id: '2', type: 'operator' })]);
		expect(first.buyOrders).toEqual([]);
		expect(first.pause_reason).toBeNull();
	});

	it('with Simplify off, returns the API shape with the related records beside it', async () => {
		const { output } = await getAll({ limit: 1, expanded: ['work'], simplify: false });
		expect(output[0].json).toMatchObject({
			id: '1',
			type: 'scheduled_work',
			attributes: expect.objectContaining({ state: 'RUNNING' }),
			relationships: { work: { data: { type: 'work', id: '1' } } },
			included: [expect.objectContaining({ type: 'work', id: '1' })],
		});
	});

	it('sends Query Parameters as given; the sandbox refuses the names the document does not list', async () => {
		const result = await getAll(
			everyPageWithQuery({ s_state: 'RUNNING', sort: 'schedule_work_id-' }),
		);
		expect(await firstQuery(fixture)).toEqual(
			firstPageQuery(2000, { s_state: 'RUNNING', sort: 'schedule_work_id-' }),
		);
		fixture.expectUnlistedQuery(result, 'getScheduledWorks', ['s_state', 'sort']);
	});
});

describe('Planned Job Order (Scheduled Work): errors and items', () => {
	it('a server error on one item becomes its error item with Continue On Fail; the next item is read', async () => {
		await fixture.control('POST', '/faults', { status: 500, count: 1, path: '/works/scheduled' });
		const { output, error } = await getAll(
			{ limit: 1, requestOptions: { maxAttempts: 1 } },
			{ items: [{}, {}], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					error: expect.stringMatching(/^The service failed on GET \/works\/scheduled \(500\)/),
					description: expect.stringContaining('An error has occurred during the request.'),
				}),
				pairedItem: { item: 0 },
			},
			{
				json: expect.objectContaining({ id: '1', type: 'scheduled_work' }),
				pairedItem: { item: 1 },
			},
		]);
	});

	it('without Continue On Fail, the server error stops the run with the spec message', async () => {
		await fixture.control('POST', '/faults', { status: 500, count: 1, path: '/works/scheduled' });
		const { error } = await getAll({ requestOptions: { maxAttempts: 1 } });
		expect(error?.message).toBe(
			'The service failed on GET /works/scheduled (500), also on retry. Check the filters and query parameters (the API answers 500 for an s_ filter it does not support), then try again.',
		);
		expect(error?.httpCode).toBe('500');
	});
});

describe('Planned Job Order (Scheduled Work): pages', () => {
	fixture.itReadsEveryPage(getAll, 'scheduledWorks', 2100);

	it('keeps expanded on every page', async () => {
		const { output } = await getAll({ returnAll: true, expanded: ['work'] });
		expect(output).toHaveLength(2100);
		expect((await fixture.requests()).map((r) => r.query.expanded)).toEqual(['work', 'work']);
		expect(output[2099].json.work).toMatchObject({ type: 'work' });
	});
});
