import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod/v3';

export type HttpMethod = 'GET' | 'POST' | 'PATCH';

/**
 * An endpoint as data: request.ts turns it, plus input item i, into one validated request.
 * Every name below is a node parameter name, which is also the API's own field name.
 */
export interface Endpoint {
	method: HttpMethod;
	/** Path after the base URL, with `{slot}` placeholders. */
	path: string;
	/**
	 * Path slot → node parameter holding its value (a plain string or a resource locator), for the
	 * slots whose parameter has another name; every other slot reads the parameter of its own name.
	 */
	pathParams?: Record<string, string>;
	/** Top-level parameters sent as query parameters when set; arrays are joined with commas. */
	query?: string[];
	/** Collection parameters ("Filters") whose entries are sent as query parameters. */
	queryCollections?: string[];
	/** Validates the query parameters read above (not the free "Query Parameters" option) before anything is sent. */
	querySchema?: () => ZodTypeAny;
	/**
	 * What the spec's answer holds: `page`, one page of a paginated collection (Return All / Limit drive
	 * `page` and `limit`); `list`, a list of records, not paginated; `record`, one record.
	 */
	answers: 'page' | 'list' | 'record';
	body?: {
		/** Top-level parameters that go into the body. */
		fields?: string[];
		/** Collection parameters ("Additional Fields", "Update Fields") merged into the body. */
		collections?: string[];
		/** Validates and coerces the body before anything is sent; built on first use (see `lazy`). */
		schema: () => ZodTypeAny;
		/**
		 * Body fields whose values the API keeps unique: a 400 naming one says which value was refused, and
		 * that a record with it most likely exists already (a re-run of items written before a stop).
		 */
		unique?: string[];
	};
}

/**
 * A filter of a list: its property, named as a query parameter of the document (the name is typed
 * against the endpoint table, see `listOperation`), and the check of its value before anything is sent.
 */
export interface QueryFilter<N extends string = string> {
	property: INodeProperties & { name: N };
	check?: () => ZodTypeAny;
}

export interface OperationModule {
	/** UI properties of the operation; its resource shows them for this operation only (defineResource). */
	description: INodeProperties[];
	endpoint: Endpoint;
	/** For operations that group input items into shared requests (bulk updates, combined batches). */
	executeAll?: (
		context: IExecuteFunctions,
		items: INodeExecutionData[],
	) => Promise<INodeExecutionData[]>;
}

/** An operation as its resource lists it: its option in the Operation selector, and its module. */
export interface OperationEntry<O extends string = string> {
	/** The option's label, in n8n's words ("Get Many"). */
	name: string;
	/** The value of the Operation selector. */
	value: O;
	description: string;
	/** The action label ("Get many buy orders"). */
	action: string;
	run: OperationModule;
}

export interface ResourceModule<R extends string = string, O extends string = string> {
	/** The value of the Resource selector. */
	value: R;
	/** The label of the Resource selector, in users' words. */
	displayName: string;
	/** The hint under that label: the API's own name where it differs. */
	hint?: string;
	/** What n8n's AI workflow builders read about the resource beside its option (not shown in the panel). */
	builderHint?: string;
	/** The operation selector plus every operation's properties. */
	description: INodeProperties[];
	operations: Record<O, OperationModule>;
}
