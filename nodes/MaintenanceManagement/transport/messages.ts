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

/** Where the credential's Test shows its base URL's form: the example every message gives. */
const API_ADDRESS = "the API's address, ending with /v3 (for example https://api.example.com/v3)";

/**
 * The credential's Test's verdict on what the base URL answered: n8n's credential modal shows only a
 * message, so each says what happened and what to do.
 */
export const testAnswer = {
	refused: () =>
		'The token was refused. A token works only in the environment that issued it: check that Environment matches where the token was generated, and that the token is complete.',
	forbidden: () =>
		'The token was accepted, but its user may not read locations (HTTP 403), which is what Test reads. Use a token of a user allowed to read locations.',
	notFound: () =>
		`Not found (HTTP 404) at this base URL: nothing of the API answers there. Check the host and the path before /v3: enter ${API_ADDRESS}.`,
	redirect: (status: number) =>
		`The base URL answered with a redirect (HTTP ${status}). Test follows no redirect, so the token was sent nowhere else. If this is the service's web address rather than its API address, enter ${API_ADDRESS}.`,
	notTheApi: (status: number, contentType: string) =>
		`The base URL answered HTTP ${status}${contentType ? ` (${contentType})` : ''}, but not as the API does: the API answers with JSON records under "data". If this is the service's web address rather than its API address, enter ${API_ADDRESS}.`,
	otherStatus: (status: number) =>
		`The base URL answered HTTP ${status}, so the token could not be checked. Try again later; if it persists, check that the base URL is ${API_ADDRESS}.`,
	noAnswer: (reason: string) =>
		`No answer from the base URL (${reason}). Check the host and port, and that this n8n can reach them.`,
};
