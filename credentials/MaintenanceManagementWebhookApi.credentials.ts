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
				"This is the secret the service must send with every webhook delivery; the trigger answers 401 to a delivery without it. How it is carried depends on the trigger's Protection: with Secret in Query Parameter, register the URL with ?token=SECRET at its end (token, or the parameter name set in the trigger); with Secret in Header, the service sends it in the header named in the trigger (X-Webhook-Secret by default); with Basic Auth, it is the password. The credential created by npm run dev for the local sandbox holds the sandbox's dev secret, which its console adds to the URLs it registers.",
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
