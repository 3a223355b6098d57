const { TestEnvironment } = require('jest-environment-node');

const ordinary = Function.prototype[Symbol.hasInstance];
const isError = (value) => Object.prototype.toString.call(value) === '[object Error]';

/**
 * Makes `value instanceof ErrorClass` true for an error of any realm, as it is in n8n, where one realm
 * holds everything. Only for the class itself: a subclass (NodeApiError, TypeError) inherits this check
 * and keeps the ordinary one.
 */
function acceptErrorsOfAnyRealm(ErrorClass) {
	if (Object.prototype.hasOwnProperty.call(ErrorClass, Symbol.hasInstance)) return;
	Object.defineProperty(ErrorClass, Symbol.hasInstance, {
		value(value) {
			return ordinary.call(this, value) || (this === ErrorClass && isError(value));
		},
	});
}

/**
 * The in-process suites' environment. n8n-workflow and n8n-core (about 2,000 modules) are loaded once
 * per jest worker by Node itself, not once per test file by jest, and every test file of the worker
 * gets that copy: jest.config.js maps their names to test/setup/n8n/. Each file still loads the
 * package's own code afresh, in the file's realm, as jest does; both realms' `Error` accept the other's
 * errors, so that `instanceof Error` in n8n-workflow and in the package answers as it does in n8n.
 */
class SharedN8nEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		// n8n's logger, which reads its level when n8n-core loads, stays silent unless the run sets one
		// (n8n's own setting): `N8N_LOG_LEVEL=debug npm run test:fast` shows its logs.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		acceptErrorsOfAnyRealm(Error);
		acceptErrorsOfAnyRealm(this.global.Error);
		this.global.__n8n = { workflow: require('n8n-workflow'), core: require('n8n-core') };
	}
}

module.exports = SharedN8nEnvironment;
