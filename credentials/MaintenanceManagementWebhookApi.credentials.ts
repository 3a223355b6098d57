import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret that incoming webhook calls must carry, kept out of the workflow JSON. The API shows no
 * request signing, so the trigger checks this secret in a query parameter, a header, or Basic auth.
 */
export class MaintenanceManagementWebhookApi implements ICredentialType {
	name = 'maintenanceManagementWebhookApi';

	displayName = 'Maintenance Management Webhook API';

	icon: Icon = {
		light: 'file:maintenanceManagement.svg',
		dark: 'file:maintenanceManagement.dark.svg',
	};

	documentationUrl = 'https://readme.invalid#webhook-setup';

	properties: INodeProperties[] = [
		{
			displayName:
				"The secret the service sends with each webhook delivery; without it, 401. As the trigger's Protection says: ?token=SECRET on the URL, the X-Webhook-Secret header, or the Basic Auth password.",
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"A long random value (at least 16 characters), the same as in the service's webhook settings. Test checks its length.",
		},
		{
			displayName: 'Username (Basic Auth Only)',
			name: 'username',
			type: 'string',
			default: '',
			description:
				'The user name expected when the trigger uses Basic auth. Leave empty to accept any user name and check only the secret.',
		},
	];
}
