import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CURRENT_VERSION, requestOptions, VERSIONS } from '../shared/properties';
import { resourceSelector, resources, retryOnFailNotice, subtitle } from './actions/resources';
import { router } from './executor';
import { testApiCredential } from './methods/credentialCheck';
import { searchBuyOrders, searchLocations, searchSuppliers } from './methods/listSearch';

export class MaintenanceManagement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Maintenance Management',
		name: 'maintenanceManagement',
		icon: { light: 'file:maintenanceManagement.svg', dark: 'file:maintenanceManagement.dark.svg' },
		group: ['transform'],
		version: VERSIONS,
		defaultVersion: CURRENT_VERSION,
		subtitle,
		description:
			'Get open work orders and those waiting for approval, create planned jobs, and manage locations, purchasing and stock in the Maintenance Management API (v3)',
		defaults: { name: 'Maintenance Management' },
		// Read by n8n's AI workflow builders alone (the type definitions n8n generates from this
		// description): what a builder gets wrong most about this node, in the users' words.
		builderHint: {
			searchHint:
				'Reads work orders (the API calls them failures) and never writes them: no operation creates, updates, approves or closes one. Path fields take whole-number IDs, never codes.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-maintenance-management.maintenanceManagementTrigger',
					relationHint:
						'Starts a workflow when the service sends an event, such as a work order reported or approved',
				},
				{
					nodeType: 'n8n-nodes-base.httpRequest',
					relationHint:
						'Calls an endpoint this node does not cover, such as a work-order write, with Authentication: Predefined Credential Type, Maintenance Management API',
				},
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'maintenanceManagementApi', required: true, testedBy: 'testApiCredential' },
		],
		properties: [
			resourceSelector,
			...Object.values(resources).flatMap((resource) => resource.description),
			retryOnFailNotice,
			requestOptions,
		],
	};

	methods = {
		credentialTest: { testApiCredential },
		listSearch: { searchBuyOrders, searchLocations, searchSuppliers },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router(this);
	}
}
