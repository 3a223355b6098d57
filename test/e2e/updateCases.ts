import type { IDataObject } from 'n8n-workflow';

/**
 * The runs the update test (test/e2e/installer.e2e.test.ts) compares besides the saved workflows that
 * succeed: the trigger's items for a few deliveries, and failing runs of a write and a read in each
 * On Error mode. Their parameters are valid for the recorded release (surface/0.1.0.json): node version
 * 2, as the action node adds itself, and Request Options that release has.
 */

/** n8n's On Error settings: the node's default, then the two Continue modes. */
export const ON_ERROR_MODES = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

/**
 * Request Options of every failing run: one retry of a read (so a lost answer is tried twice), and a
 * wait of at most 1 s, so that a rate limit that asks for 600 s fails at once.
 */
const REQUEST_OPTIONS: IDataObject = { maxAttempts: 2, maxRequestWaitSeconds: 1 };

/**
 * A sandbox fault (docs/sandbox.md, POST /__sandbox/faults) for item 1's request. Its count covers a
 * second try: a request sent again meets the same fault, and shows in the request log.
 */
const faultOn = (method: string, path: string, fault: IDataObject): IDataObject => ({
	method,
	path,
	count: 2,
	...fault,
});

/** Three rows a Code node makes, the action node's input: its item 1 is the one that fails. */
export interface FailingCase {
	/** "<operation> <what fails>", the mode added to name the run. */
	name: string;
	parameters: IDataObject;
	rows: IDataObject[];
	fault?: IDataObject;
}

/** Material → Update of materials 1, 2 and 3, each row its ID, name and code. */
const MATERIAL_UPDATE: IDataObject = {
	resource: 'material',
	operation: 'update',
	materialId: '={{ $json.id }}',
	material_type_id: 2,
	name: '={{ $json.name }}',
	code: '={{ $json.code }}',
	units: 'unit',
	requestOptions: REQUEST_OPTIONS,
};
const MATERIALS = [
	{ id: 1, name: 'Valve DN50', code: 'MAT-1' },
	{ id: 2, name: 'Bolt M8', code: 'MAT-2' },
	{ id: 3, name: 'Gasket', code: 'MAT-3' },
];
const materials = (second: IDataObject = {}) => [
	MATERIALS[0],
	{ ...MATERIALS[1], ...second },
	MATERIALS[2],
];
const onMaterial2 = (fault: IDataObject) => faultOn('PATCH', '/stocks/materials/2', fault);

/** Location → Get of locations 3, 4 and 5. */
const LOCATION_GET: IDataObject = {
	resource: 'location',
	operation: 'get',
	id: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	requestOptions: REQUEST_OPTIONS,
};
const locations = (second = 4) => [{ id: 3 }, { id: second }, { id: 5 }];
const onLocation4 = (fault: IDataObject) => faultOn('GET', '/locations/4', fault);

export const FAILING_CASES: FailingCase[] = [
	{
		name: 'write refused (400)',
		parameters: MATERIAL_UPDATE,
		// Material 5's code: the API keeps codes unique.
		rows: materials({ code: 'MAT-5' }),
	},
	{ name: 'write missing (404)', parameters: MATERIAL_UPDATE, rows: materials({ id: 999999 }) },
	{
		name: 'write rate-limited past Max Wait (429)',
		parameters: MATERIAL_UPDATE,
		rows: materials(),
		fault: onMaterial2({ status: 429, retryAfter: 600 }),
	},
	{
		name: 'write answer lost',
		parameters: MATERIAL_UPDATE,
		rows: materials(),
		fault: onMaterial2({ drop: true }),
	},
	{
		name: 'write answered 200 in the error envelope of 429',
		parameters: MATERIAL_UPDATE,
		rows: materials(),
		fault: onMaterial2({ status: 200, httpCode: 429 }),
	},
	{
		// The API refuses no location ID by itself: the sandbox plays its 400 envelope.
		name: 'read refused (400)',
		parameters: LOCATION_GET,
		rows: locations(),
		fault: onLocation4({ status: 400 }),
	},
	{ name: 'read missing (404)', parameters: LOCATION_GET, rows: locations(999999) },
	{
		name: 'read rate-limited past Max Wait (429)',
		parameters: LOCATION_GET,
		rows: locations(),
		fault: onLocation4({ status: 429, retryAfter: 600 }),
	},
	{
		name: 'read answer lost',
		parameters: LOCATION_GET,
		rows: locations(),
		fault: onLocation4({ drop: true }),
	},
];

/** Each failing case in each On Error mode: "<case>, <mode>". */
export const FAILING_RUNS = FAILING_CASES.flatMap((failing) =>
	ON_ERROR_MODES.map((onError) => ({ ...failing, name: `${failing.name}, ${onError}`, onError })),
);

/**
 * The deliveries the trigger receives before and after the update, each to its URL as the service makes
 * it: different events, by POST and by PATCH, one with fields the spec does not name (in the payload,
 * the query and the headers), and one of an event the trigger is not set to start on.
 */
export interface Delivery {
	name: string;
	method: 'POST' | 'PATCH';
	body: IDataObject;
	query?: Record<string, string>;
	headers?: Record<string, string>;
	/** Whether the trigger starts the workflow: it ignores an event it is not set to. */
	starts: boolean;
}

export const DELIVERIES: Delivery[] = [
	{
		name: 'work order created, by POST',
		method: 'POST',
		body: { event: 'FAILURE_CREATED', data: { type: 'failure', id: '1' } },
		starts: true,
	},
	{
		name: 'buy order updated, by PATCH',
		method: 'PATCH',
		body: {
			event: 'BUY_ORDER_UPDATED',
			data: { type: 'buy-order', id: '7', attributes: { state: 'CONFIRMED', total: 125.5 } },
		},
		starts: true,
	},
	{
		name: 'an event not selected',
		method: 'POST',
		body: { event: 'FILE_DELETED', data: { type: 'file', id: '12' } },
		starts: false,
	},
	{
		name: 'work order created, with fields the spec does not name',
		method: 'POST',
		body: {
			event: 'FAILURE_CREATED',
			delivery: { id: 'dlv-0042', attempt: 2, sent_at: '2026-01-15T08:30:00Z' },
			data: {
				type: 'failure',
				id: '9',
				attributes: { description: 'Leaking tap', priority: 3, custom: { erp: ['A', 'B'] } },
				relationships: { local: { data: { type: 'location', id: '3' } } },
			},
			tenant: 'north',
			flags: [true, null, 0],
		},
		query: { source: 'erp', attempt: '2' },
		headers: { 'X-Delivery-Id': 'dlv-0042', 'X-Vendor-Extra': 'kept' },
		starts: true,
	},
];
