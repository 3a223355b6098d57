/**
 * The words of a credential the node cannot use: each builder is named for what it says and gives an
 * error's message and description. The words of a request's failures are in failures.ts and errors.ts;
 * the node's other words are in helpers/messages.ts.
 */

const CREDENTIAL = '"Maintenance Management API" credential';

/** The credential has no access token. */
export const tokenMissing = () => ({
	message: 'The access token is missing',
	description: `Enter the personal access token in the ${CREDENTIAL}. No request was sent.`,
});

/** The credential's token has a space or line break in it. */
export const tokenNotOneText = () => ({
	message: 'The access token contains a space or line break',
	description: `A token is one unbroken text: the API refuses any space or line break in it. Paste the token again in the ${CREDENTIAL}, on one line. No request was sent.`,
});

/** The base URL of the credential's environment cannot be used; `problem` says why. */
export const unusableBaseUrl = (label: string, problem: string) => ({
	message: `The credential's ${label} ${problem}`,
	description: `Set "${label}" in the credential to the address of the API: https://, the host, and the path ending with /v3 (for example https://api.example.com/v3). No request was sent.`,
});
