import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Bearer-token credential. A token is valid only in the environment that issued it, so the
 * environment and both base URLs live here, next to the token.
 */
export class MaintenanceManagementApi implements ICredentialType {
	name = 'maintenanceManagementApi';

	displayName = 'Maintenance Management API';

	icon: Icon = {
		light: 'file:maintenanceManagement.svg',
		dark: 'file:maintenanceManagement.dark.svg',
	};

	documentationUrl = 'https://readme.invalid#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Create a personal access token in the Maintenance Management service. It works only in the environment that issued it (production or sandbox). Test reads one location: not proof of write access.',
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Personal access token. It is valid only in the environment where it was generated. Spaces or line breaks around a pasted token are removed.',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Sandbox', value: 'sandbox' },
			],
			default: 'production',
			description: 'Which environment to call. Use the token generated in that environment.',
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com/v3',
			required: true,
			displayOptions: { show: { environment: ['production'] } },
			description: 'Address of the production API, ending with /v3',
			hint: 'The API address your service gives, with https and ending with /v3, such as https://api.example.com/v3.',
		},
		{
			displayName: 'Sandbox Base URL',
			name: 'sandboxBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://sandbox.example.com/v3',
			required: true,
			displayOptions: { show: { environment: ['sandbox'] } },
			description: 'Address of the sandbox API, ending with /v3',
			hint: "The service's sandbox environment, with https and ending with /v3, such as https://sandbox.example.com/v3.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '={{"Bearer " + String($credentials.accessToken).trim()}}',
			},
		},
	};
}
